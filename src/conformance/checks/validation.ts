/**
 * Invalid requests generated from each operation's request schema (see `negative.ts`): each must answer
 * a 4xx `{error}` and never a 5xx; in the full profile exactly the documented 400. Where the contract
 * fixes the message (`x-required-messages`, e.g. `Image is required for editing.`), the message too.
 */
import { type Operation } from '../../contract/index.ts';
import { checkedOperations } from '../scope.ts';
import type { Check, RunContext } from '../check.ts';
import { buildRequest, firstExample } from '../examples.ts';
import { negativeCases } from '../negative.ts';
import { expectClientError, expectMessage } from '../expectations.ts';
import { withStreamAccept } from '../requests.ts';

export function validationChecks(ctx: RunContext): Check[] {
  return checkedOperations.flatMap((op) => casesFor(ctx, op));
}

function casesFor(ctx: RunContext, op: Operation): Check[] {
  const example = firstExample(op);
  const best = ctx.keys.best();
  if (!example || (!example.body && op.parameters.length === 0)) return [];
  const base = buildRequest(op, example, { catalogue: ctx.catalogue, ...(best ? { tier: best.tier, key: best.key } : {}) });
  return negativeCases(op, { body: base.json, query: base.query ?? {} }, ctx.seed).map((c): Check => ({
    id: `${op.operationId}/validation/${c.slug}`,
    operationId: op.operationId,
    family: 'validation',
    title: `${c.title} → ${c.message ? `400 ${c.message}` : '4xx {error}'}`,
    reference: c.reference,
    async run(t) {
      if (!best) return t.skip('no key given (--key tier=sk-…)');
      const req = withStreamAccept(t, { ...base, query: c.query, ...(c.body === undefined ? {} : { json: c.body }) });
      const ex = await t.send(req);
      if (!expectClientError(t, op, ex, 400, c.rule)) return;
      // A mock answers every invalid request with the same example message.
      if (c.message && t.ctx.profile.stateful) {
        t.status(ex, 400, c.rule);
        expectMessage(t, ex, c.message, c.rule);
      }
    },
  }));
}
