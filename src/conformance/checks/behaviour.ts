/**
 * Text generation behaviour the specification states: `temperature` lies between 0 and 2 (both bounds
 * accepted, anything beyond refused) and `max_tokens` is honoured (no more completion tokens than asked,
 * `finish_reason: length` when the answer was cut). The chat endpoint is the one the specification
 * describes; the same rules on the prompt endpoint are reference decisions (D1). An operation that counts
 * tokens for another (`x-model-endpoint`, Anthropic's `count_tokens`) answers exactly the `input_tokens` the
 * same request is billed there (D27).
 */
import { modelEndpoint, type Operation } from '../../contract/index.ts';
import { checkedOperations } from '../scope.ts';
import type { Check, Tester } from '../check.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { propertySchema } from '../schema.ts';
import { completionTokens, expectClientError, expectSuccess, finishReason, isCutShort, SPEC, textOf } from '../expectations.ts';
import { longRequest, validRequest, withBody } from '../requests.ts';

/** The operation the specification describes field by field. */
const CHAT = 'createChatCompletion';

export function behaviourChecks(): Check[] {
  return checkedOperations.flatMap((op) => {
    const counted = modelEndpoint(op) === op.path ? undefined : checkedOperations.find((o) => o.path === modelEndpoint(op) && o.method === op.method);
    if (counted) return [countMatchesUsage(op, counted)];
    const body = op.raw.requestBody?.content['application/json']?.schema;
    if (!body) return [];
    const checks: Check[] = [];
    const reference = op.operationId !== CHAT;
    const temperature = propertySchema(body, 'temperature');
    if (typeof temperature?.minimum === 'number' && typeof temperature.maximum === 'number') {
      checks.push(temperatureBounds(op, temperature.minimum, temperature.maximum, reference));
    }
    if (propertySchema(body, 'max_tokens')) checks.push(...maxTokens(op, reference));
    return checks;
  });
}

function temperatureBounds(op: Operation, min: number, max: number, reference: boolean): Check {
  return {
    id: `${op.operationId}/behaviour/temperature-bounds`,
    operationId: op.operationId,
    family: 'behaviour',
    title: `temperature ${min} and ${max} → success; ${min - 0.1} and ${max + 0.1} → 400`,
    reference,
    async run(t) {
      const base = validRequest(t, op);
      const rule = `${SPEC.limits}: temperature lies between ${min} and ${max}`;
      for (const value of [min, max]) {
        expectSuccess(t, op, await t.send(withBody(base, { temperature: value })), rule, `temperature ${value}`);
      }
      for (const value of [Math.round((min - 0.1) * 10) / 10, Math.round((max + 0.1) * 10) / 10]) {
        const ex = await t.send(withBody(base, { temperature: value }));
        if (t.status(ex, 400, rule, `temperature ${value}`)) expectClientError(t, op, ex, 400, rule);
      }
    },
  };
}

function maxTokens(op: Operation, reference: boolean): Check[] {
  return [
    {
      id: `${op.operationId}/behaviour/max-tokens`,
      operationId: op.operationId,
      family: 'behaviour',
      title: 'max_tokens below the natural length → at most max_tokens completion tokens, finish_reason length',
      reference,
      stateful: true,
      async run(t) {
        const base = longRequest(t, op);
        const full = await t.send(base);
        if (!expectSuccess(t, op, full, SPEC.chat, 'without max_tokens')) return;
        const natural = completionTokens(full);
        if (natural === undefined || natural < 2) return t.skip(`the unrestricted answer has ${natural} completion tokens; nothing to cut`);
        const limit = Math.floor(natural / 2);
        const cut = await t.send(withBody(base, { max_tokens: limit }));
        if (!expectSuccess(t, op, cut, SPEC.chat, `max_tokens ${limit}`)) return;
        const used = completionTokens(cut);
        t.expect(used !== undefined && used <= limit, `max_tokens ${limit} gave ${used} completion tokens`, `${SPEC.chat}: max_tokens`, cut);
        const reason = finishReason(cut);
        t.expect(isCutShort(reason), `an answer cut by max_tokens ends with ${JSON.stringify(reason)}, not "length" (Anthropic: "max_tokens")`, `${SPEC.chat}: max_tokens`, cut);
      },
    },
    {
      id: `${op.operationId}/behaviour/max-tokens-one`,
      operationId: op.operationId,
      family: 'behaviour',
      title: 'max_tokens 1 → exactly one token of content',
      reference: true,
      stateful: true,
      async run(t) {
        const ex = await t.send(withBody(longRequest(t, op), { max_tokens: 1 }));
        if (!expectSuccess(t, op, ex, SPEC.chat, 'max_tokens 1')) return;
        t.expect(completionTokens(ex) === 1, `max_tokens 1 gave ${completionTokens(ex)} completion tokens`, `${SPEC.chat}: max_tokens`, ex);
        const text = textOf(ex);
        t.expect(typeof text === 'string' && text.length > 0, `max_tokens 1 gave the content ${JSON.stringify(text)}`, `${SPEC.chat}: max_tokens`, ex);
      },
    },
  ];
}

function countMatchesUsage(op: Operation, target: Operation): Check {
  return {
    id: `${op.operationId}/behaviour/count-matches-usage`,
    operationId: op.operationId,
    family: 'behaviour',
    title: `input_tokens equals the usage.input_tokens of the same request on ${target.path}`,
    stateful: true,
    async run(t) {
      const counted = validRequest(t, op);
      const count = await t.send(counted);
      if (!expectSuccess(t, op, count, 'D27', 'the count')) return;
      const answered = await t.send({ ...withBody(counted, { max_tokens: 64 }), path: target.path });
      if (!expectSuccess(t, target, answered, 'D27', `the same request on ${target.path}`)) return;
      const expected = (answered.response?.json as { usage?: { input_tokens?: unknown } }).usage?.input_tokens;
      const got = (count.response?.json as { input_tokens?: unknown }).input_tokens;
      t.expect(got === expected, `count_tokens says ${got}, the answer's usage.input_tokens is ${expected}`, 'D27: count_tokens answers the input_tokens billed', answered);
    },
  };
}
