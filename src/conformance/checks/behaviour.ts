/**
 * Text generation behaviour the specification states: `temperature` lies between 0 and 2 (both bounds
 * accepted, anything beyond refused) and `max_tokens` is honoured (no more completion tokens than asked,
 * `finish_reason: length` when the answer was cut). The chat endpoint is the one the specification
 * describes; the same rules on the prompt endpoint are reference decisions (D1). An operation that counts
 * tokens for another (`x-model-endpoint`, Anthropic's `count_tokens`) answers exactly the `input_tokens` the
 * same request is billed there (D27). The Responses API (D29): `max_output_tokens` ends a response
 * `incomplete`; structured output (`text.format`, and chat's `response_format`) is JSON valid against the
 * schema; a response sent with `store: false` cannot be read, nor one deleted.
 */
import { compileInline, contract, describeErrors, modelEndpoint, type Operation } from '../../contract/index.ts';
import { linkTo, withLinkedParameters } from '../links.ts';
import { checkedOperations } from '../scope.ts';
import type { Check, Tester } from '../check.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { propertySchema } from '../schema.ts';
import { completionTokens, expectClientError, expectSuccess, finishReason, isCutShort, SPEC, textOf } from '../expectations.ts';
import { longRequest, validRequest, withBody } from '../requests.ts';

/** The operation the specification describes field by field. */
const CHAT = 'createChatCompletion';

export function behaviourChecks(): Check[] {
  return [...checkedOperations.flatMap(storedChecks), ...checkedOperations.flatMap((op) => {
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
    if (propertySchema(body, 'max_output_tokens')) checks.push(maxOutputTokens(op));
    if (propertySchema(body, 'text')) checks.push(structuredOutput(op, 'text.format'));
    else if (propertySchema(body, 'response_format')) checks.push(structuredOutput(op, 'response_format'));
    return checks;
  })];
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

/** A JSON Schema the structured-output check asks for (chat's `response_format` has no example of its own). */
const CITY_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, country: { type: 'string' }, best_months: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['name', 'country', 'best_months'],
  additionalProperties: false,
};

function maxOutputTokens(op: Operation): Check {
  return {
    id: `${op.operationId}/behaviour/max-output-tokens`,
    operationId: op.operationId,
    family: 'behaviour',
    title: 'max_output_tokens below the natural length → status incomplete, incomplete_details.reason max_output_tokens',
    stateful: true,
    async run(t) {
      const base = withBody(longRequest(t, op), { store: false });
      const full = await t.send(base);
      if (!expectSuccess(t, op, full, 'D29', 'without max_output_tokens')) return;
      const natural = completionTokens(full);
      if (natural === undefined || natural < 4) return t.skip(`the unrestricted answer has ${natural} output tokens; nothing to cut`);
      const limit = Math.floor(natural / 2);
      const cut = await t.send(withBody(base, { max_output_tokens: limit }));
      if (!expectSuccess(t, op, cut, 'D29', `max_output_tokens ${limit}`)) return;
      const json = cut.response?.json as { status?: unknown; incomplete_details?: { reason?: unknown } | null; usage?: { output_tokens?: unknown } };
      t.expect(typeof json.usage?.output_tokens === 'number' && json.usage.output_tokens <= limit, `max_output_tokens ${limit} gave ${json.usage?.output_tokens} output tokens`, 'D29: max_output_tokens', cut);
      t.expect(json.status === 'incomplete' && json.incomplete_details?.reason === 'max_output_tokens', `a response cut by max_output_tokens has status ${JSON.stringify(json.status)} and incomplete_details ${JSON.stringify(json.incomplete_details)}`, 'D29: max_output_tokens', cut);
    },
  };
}

/** Structured output through the Responses API's `text.format`, or chat's `response_format`. */
function structuredOutput(op: Operation, field: 'text.format' | 'response_format'): Check {
  const responses = field === 'text.format';
  return {
    id: `${op.operationId}/behaviour/structured-output`,
    operationId: op.operationId,
    family: 'behaviour',
    title: responses ? 'text.format json_schema → output text is JSON valid against the schema' : 'response_format json_schema → content is JSON valid against the schema',
    stateful: true,
    async run(t) {
      const format = responses
        ? { text: { format: { type: 'json_schema', name: 'city', strict: true, schema: CITY_SCHEMA } }, store: false }
        : { response_format: { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: CITY_SCHEMA } } };
      const ex = await t.send(withBody(validRequest(t, op), { ...format, input: 'Describe a city I could visit in spring.', ...(responses ? {} : { messages: [{ role: 'user', content: 'Describe a city I could visit in spring.' }] }) }));
      if (!expectSuccess(t, op, ex, 'D29', 'a structured request')) return;
      const text = textOf(ex);
      let value: unknown;
      try {
        value = JSON.parse(String(text));
      } catch {
        t.fail(`the output is not JSON: ${JSON.stringify(String(text).slice(0, 120))}`, 'D29: structured output', ex);
        return;
      }
      const validate = compileInline(CITY_SCHEMA);
      t.expect(validate(value) === true, `the output does not validate against the schema: ${describeErrors(validate.errors)}`, 'D29: structured output', ex);
    },
  };
}

/** Checks on an operation that reads what another creates (a stored response): not kept with store false, gone once deleted. */
function storedChecks(op: Operation): Check[] {
  const link = linkTo(op);
  if (!link || op.method !== 'get') return [];
  const remover = contract.operations.find((o) => o.path === op.path && o.method === 'delete');
  const checks: Check[] = [
    {
      id: `${op.operationId}/behaviour/not-stored`,
      operationId: op.operationId,
      family: 'behaviour',
      title: `made with store: false → ${op.method.toUpperCase()} ${op.path} answers 404`,
      stateful: true,
      async run(t) {
        const base = validRequest(t, op);
        const req = await withLinkedParameters(t.ctx, base, t.ctx.keys.best()?.key, (r) => t.send(r), { store: false });
        if (typeof req === 'string') return t.skip(req);
        const ex = await t.send(req);
        if (t.status(ex, 404, 'D29: store false keeps nothing')) t.shape(op, ex);
      },
    },
  ];
  if (remover) {
    checks.push({
      id: `${op.operationId}/behaviour/deleted`,
      operationId: op.operationId,
      family: 'behaviour',
      title: `after DELETE ${op.path} → ${op.method.toUpperCase()} answers 404, and a second DELETE too`,
      stateful: true,
      async run(t) {
        const base = validRequest(t, op);
        const req = await withLinkedParameters(t.ctx, base, t.ctx.keys.best()?.key, (r) => t.send(r));
        if (typeof req === 'string') return t.skip(req);
        const deleted = await t.send({ ...req, method: 'DELETE' });
        if (!expectSuccess(t, remover, deleted, 'D29', 'the delete')) return;
        const after = await t.send(req);
        if (t.status(after, 404, 'D29: a deleted response is gone', 'read after delete')) t.shape(op, after);
        const again = await t.send({ ...req, method: 'DELETE' });
        if (t.status(again, 404, 'D29: a deleted response is gone', 'second delete')) t.shape(remover, again);
      },
    });
  }
  return checks;
}
