/** Faults that break a response on its way out (see faults.ts); installed only when one is switched on. */
import type { FastifyInstance } from 'fastify';
import type { Faults } from './faults.ts';

export function installFaultHooks(app: FastifyInstance, faults: Faults): void {
  const outgoing = ['success-status-201', 'json-content-type-text', 'error-body-message-key'] as const;
  if (!outgoing.some((f) => faults.has(f))) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config.operationId) return payload;
    if (faults.has('success-status-201') && reply.statusCode === 200) reply.code(201);
    if (faults.has('json-content-type-text') && String(reply.getHeader('content-type')).startsWith('application/json')) {
      reply.header('content-type', 'text/plain; charset=utf-8');
    }
    if (faults.has('error-body-message-key') && reply.statusCode >= 400 && typeof payload === 'string') {
      const body = JSON.parse(payload) as { error?: string };
      return JSON.stringify({ message: body.error });
    }
    return payload;
  });
}
