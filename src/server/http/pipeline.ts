/**
 * The one request pipeline: every operation of every description the server serves (the public contract and
 * the admin API) is registered by the same loop, with the same stages, in the order Fastify runs them:
 *
 *   onRequest   authentication (auth.ts), from the operation's `security`
 *   parsing     JSON only (error-handler.ts)
 *   validation  the contract's validators for the body, query and path (validation.ts)
 *   handler     routes/<operationId>.ts, which calls the domain
 *   errors      any failure, from any stage, through the one error handler (error-handler.ts), in the shape the
 *               operation declares (error-formats.ts)
 */
import type { FastifyInstance } from 'fastify';
import type { Contract, Operation } from '../../contract/index.ts';
import type { ApiKeyRecord } from '../domain/store/index.ts';
import type { AppContext, Handler } from '../context.ts';
import { authenticator, type Credentials } from './auth.ts';
import { errorFormatOf, type ErrorFormat } from './error-formats.ts';
import { contractValidators, validatedParts } from './validation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key; null on a public operation called without one, and for the admin. */
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyContextConfig {
    /** The contract operation this route serves (absent on the server's own pages). */
    operation?: Operation;
    /** The shape of its error answers, as its description declares them (error-formats.ts). */
    errorFormat?: ErrorFormat;
  }
}

export interface Pipeline {
  contracts: readonly Contract[];
  /** A handler for every operation, by operationId. */
  handlers: Record<string, Handler>;
  credentials: Credentials;
  context: AppContext;
}

/**
 * @example
 * registerOperations(app, { contracts: [contract, adminApi], handlers, credentials, context });
 */
export function registerOperations(app: FastifyInstance, { contracts, handlers, credentials, context }: Pipeline): void {
  const operations = contracts.flatMap((c) => c.operations.map((op) => ({ contract: c, op })));
  const served = new Set(operations.map(({ op }) => op.operationId));
  const extra = Object.keys(handlers).filter((id) => !served.has(id));
  if (extra.length > 0) throw new Error(`Handlers without an operation in the contract: ${extra.join(', ')}`);

  app.decorateRequest('apiKey', null);

  for (const contract of contracts) contract.precompileRequests();
  // Every operation's authentication is made before any route is: a scheme nothing implements fails at start.
  const authenticators = operations.map(({ op }) => authenticator(op, credentials));
  for (const [i, { contract, op }] of operations.entries()) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`The operation ${op.operationId} of ${contract.id} has no handler in routes/`);
    const authenticate = authenticators[i]!;
    app.route({
      method: op.method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
      url: op.path.replace(/\{(\w+)\}/g, ':$1'),
      config: { operation: op, errorFormat: errorFormatOf(op) },
      // The route's own hook, after the server's (security headers, CORS, shutdown): the operation is in its
      // closure, where a global hook would read it from `request.routeOptions` (an object Fastify builds on
      // every read). A callback hook on the authenticator's promise, not an async function awaiting it: one
      // promise fewer on every request.
      onRequest: (request, _reply, done) => {
        authenticate(request).then((key) => {
          request.apiKey = key;
          done();
        }, done);
      },
      schema: validatedParts(op),
      validatorCompiler: contractValidators(contract, op),
      handler: (request, reply) => handler(request, reply, context),
    });
  }
}
