/**
 * Invalid requests generated from each operation's request schema (see `negative.ts`): each must answer
 * a 4xx `{error}` and never a 5xx; in the full profile exactly the documented 400. Where the contract
 * fixes the message (`x-required-messages`, e.g. `Image is required for editing.`), the message too.
 */
import { type Operation } from '../../contract/index.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import { buildRequest, firstExample } from '../examples.ts';
import { negativeCases } from '../negative.ts';
import { errorMessage, expectClientError, expectMessage, expectSuccess } from '../expectations.ts';
import { validRequest, withBody, withStreamAccept } from '../requests.ts';
import { propertySchema } from '../schema.ts';

export function validationChecks(ctx: RunContext): Check[] {
  return ctx.contract.operations.flatMap((op) => [...casesFor(ctx, op), ...modelPlacement(ctx, op), ...unsupportedSize(ctx, op)]);
}

/**
 * D12: where the contract lists the sizes the reference supports (`x-reference-sizes`), a well-formed size
 * outside them answers 400 naming the supported ones (reference; the specification leaves sizes to the model).
 */
function unsupportedSize(ctx: RunContext, op: Operation): Check[] {
  const body = op.raw.requestBody?.content['application/json']?.schema;
  const size = body && propertySchema(ctx.contract, body, 'size');
  const supported = (size as { 'x-reference-sizes'?: string[] } | undefined)?.['x-reference-sizes'];
  if (!supported) return [];
  const odd = ['300x300', '333x333', '1000x1000'].find((s) => !supported.includes(s))!;
  return stated(ctx, 'image-sizes', {
    id: `${op.operationId}/validation/size-unsupported`,
    operationId: op.operationId,
    family: 'validation',
    title: `size ${odd} (well-formed, not supported) → 400 naming ${supported.join(', ')} (D12)`,
    stateful: true,
    async run(t) {
      const ex = await t.send(withBody(validRequest(t, op), { size: odd, n: 1 }));
      if (!expectClientError(t, op, ex, 400, 'image-sizes')) return;
      const message = errorMessage(ex) ?? '';
      t.expect(supported.every((s) => message.includes(s)), `the message ${JSON.stringify(message)} does not name every supported size (${supported.join(', ')})`, 'image-sizes', ex);
    },
  });
}

/**
 * D2, where an operation takes `model` both as a query parameter and in its body (the prompt endpoint, whose
 * two usage forms the specification shows): the query form alone is served (core); neither is a 400, and
 * two different models are a 400 (reference).
 */
function modelPlacement(ctx: RunContext, op: Operation): Check[] {
  const inQuery = op.parameters.some((p) => p.in === 'query' && p.name === 'model');
  const body = op.raw.requestBody?.content['application/json']?.schema;
  if (!inQuery || !body || !propertySchema(ctx.contract, body, 'model')) return [];
  const check = (slug: string, title: string, reference: boolean, run: Check['run']): Check[] =>
    stated(ctx, 'model-placement', { id: `${op.operationId}/validation/${slug}`, operationId: op.operationId, family: 'validation', title, reference, stateful: true, run });
  const split = (t: Tester) => {
    const req = validRequest(t, op);
    const { model, ...rest } = req.json as Record<string, unknown>;
    return { req, model: String(model), rest };
  };
  return [
    ...check('model-in-query', "'model' as a query parameter instead of in the body → success (D2)", false, async (t) => {
      const { req, model, rest } = split(t);
      expectSuccess(t, op, await t.send({ ...req, json: rest, query: { ...req.query, model } }), 'model-placement: model in the query');
    }),
    ...check('model-missing', "no 'model' in the query nor in the body → 400 {error} (D2)", true, async (t) => {
      const { req, rest } = split(t);
      expectClientError(t, op, await t.send({ ...req, json: rest }), 400, 'model-placement: a model is required');
    }),
    ...check('model-conflict', "one 'model' in the query, another in the body → 400 {error} (D2)", true, async (t) => {
      const { req, model } = split(t);
      const other = t.ctx.catalogue.offering(op.path).find((m) => m.id !== model)?.id ?? 'conformance-other-model';
      expectClientError(t, op, await t.send({ ...req, query: { ...req.query, model: other } }), 400, 'model-placement: the two must agree');
    }),
  ];
}

function casesFor(ctx: RunContext, op: Operation): Check[] {
  const example = firstExample(ctx.contract, op);
  const best = ctx.keys.best();
  if (!example || (!example.body && op.parameters.length === 0)) return [];
  const base = buildRequest(ctx, op, example, best ? { ...(best.tier ? { tier: best.tier } : {}), key: best.key } : {});
  const expected = ctx.protocol.exactStatuses ? '400' : '4xx';
  return negativeCases(ctx.contract, op, { body: base.json, query: base.query ?? {} }, ctx.seed).flatMap((c) => stated(ctx, 'invalid-request', {
    id: `${op.operationId}/validation/${c.slug}`,
    operationId: op.operationId,
    family: 'validation',
    title: `${c.title} → ${c.message ? `400 ${c.message}` : `${expected} error`}`,
    reference: c.reference,
    async run(t) {
      if (!best) return t.skip('no key given (--key KEY)');
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
