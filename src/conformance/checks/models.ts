/**
 * The model named in a request: an unknown model answers 404 `{error}` (D10; core: a 4xx), and a model
 * from the listing that does not offer the endpoint answers 400 naming one that does. For the image
 * endpoints that is the specification's image model rule (a chat model → 400 naming the image model).
 */
import { tierRank, type Operation } from '../../contract/index.ts';
import type { Check, RunContext } from '../check.ts';
import { takesModel, withModel } from '../examples.ts';
import { checkedOperations } from '../scope.ts';
import { expectClientError, SPEC, validRequest } from './common.ts';

export const UNKNOWN_MODEL = 'conformance-unknown-model';

export function modelChecks(ctx: RunContext): Check[] {
  return checkedOperations.filter((op) => takesModel(op)).flatMap((op) => [unknownModel(op), ...modelRule(ctx, op)]);
}

function unknownModel(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/unknown-model`,
    operationId: op.operationId,
    family: 'errors',
    title: `an unknown model '${UNKNOWN_MODEL}' → 404 {error} (D10; core: 4xx)`,
    stateful: true,
    async run(t) {
      const req = withModel(op, validRequest(t, op), UNKNOWN_MODEL);
      expectClientError(t, op, await t.send(req), op.responses['404'] ? 404 : 400, 'D10');
    },
  };
}

/**
 * A model from the listing that does not offer this endpoint → 400 whose message names a model that
 * does. For the image endpoints this is the specification's image model rule (core); elsewhere D10.
 */
function modelRule(ctx: RunContext, op: Operation): Check[] {
  const image = ctx.catalogue.imageModel();
  const imageRule = !!image && image.endpoints.includes(op.path);
  return [
    {
      id: `${op.operationId}/errors/model-without-endpoint`,
      operationId: op.operationId,
      family: 'errors',
      title: imageRule
        ? `a chat model as model → 400 naming the image model '${image!.id}'`
        : `a model that does not offer ${op.path} → 400 naming one that does (D10)`,
      stateful: true,
      reference: !imageRule,
      async run(t) {
        const best = t.ctx.keys.best();
        if (!best) return t.skip('no key given (--key tier=sk-…)');
        const other = t.ctx.catalogue.models
          .filter((m) => !m.endpoints.includes(op.path) && tierRank(m.tier) <= tierRank(best.tier))
          .sort((a, b) => Number(b.category === 'Chat') - Number(a.category === 'Chat'))[0];
        if (!other) return t.skip(`every model in the listing offers ${op.path}`);
        const ex = await t.send(withModel(op, validRequest(t, op), other.id));
        const rule = imageRule ? `${SPEC.errors}: image model rule` : 'D10';
        if (!t.status(ex, 400, rule, `model '${other.id}'`)) return;
        t.shape(op, ex);
        const message = String((ex.response?.json as { error?: unknown })?.error ?? '');
        const named = imageRule ? [image!.id] : t.ctx.catalogue.offering(op.path).map((m) => m.id);
        t.expect(named.some((id) => message.includes(id)), `the message ${JSON.stringify(message)} names none of ${named.join(', ')}`, rule, ex);
      },
    },
  ];
}
