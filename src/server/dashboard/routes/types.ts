import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardContext } from '../context.ts';

/** The handler of one dashboard operation; admin access is already checked where the contract asks for it. */
export type DashboardHandler = (request: FastifyRequest, reply: FastifyReply, context: DashboardContext) => Promise<unknown>;
