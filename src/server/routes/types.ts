import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';

/** A route handler of one contract operation; the request is already authenticated (`request.apiKey`). */
export type Handler = (request: FastifyRequest, reply: FastifyReply, context: GatewayContext) => Promise<unknown>;
