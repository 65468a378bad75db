/** GET /dashboard/api/upstreams — each routed model's upstreams and their health now (decision D40); never a key. */
import type { components } from '../../../generated/admin/schema.d.ts';
import type { Handler } from '../context.ts';

type RoutedModel = components['schemas']['RoutedModel'];

export const listUpstreams: Handler = async (_request, reply, { upstreams }) => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const models: RoutedModel[] = upstreams().map((routed) => ({
    model: routed.model,
    strategy: routed.strategy,
    upstreams: routed.upstreams.map((u) => ({
      name: u.name,
      protocol: u.protocol,
      origin: u.origin,
      weight: u.weight,
      state: u.state,
      until: u.until === undefined ? null : iso(u.until),
      recentFailures: u.recentFailures,
      lastFailure: u.lastFailure ? { kind: u.lastFailure.kind, at: iso(u.lastFailure.at), message: u.lastFailure.account } : null,
      attempts: u.attempts,
      served: u.served,
    })),
  }));
  return reply.header('cache-control', 'no-store').send({ models });
};
