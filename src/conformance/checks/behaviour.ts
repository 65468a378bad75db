/**
 * Generation behaviour the descriptions state, on every operation whose request has the field:
 *
 * - `sampling-bounds`: `temperature` accepts its bounds and refuses values beyond them;
 * - `max-tokens`: `max_tokens` bounds the tokens generated, and an answer cut by it says so (`length`,
 *   Anthropic's `max_tokens`); `max-output-tokens`: a Responses answer cut by `max_output_tokens` is `incomplete`;
 * - `stop-reasons`: a stop sequence generated ends the answer before it, and is named (Anthropic);
 * - `structured-output`: `json_schema` (chat's `response_format`, Responses' `text.format`) gives JSON valid
 *   against the schema, `json_object` a JSON object;
 * - `stored-responses`: a response sent with `store: false`, or deleted, can be neither read nor continued;
 *   `previous_response_id` continues a stored one; `stored-private`: another key can do neither;
 * - `count-matches-usage` (the gateway's D27): counting a request's tokens answers the `input_tokens` it is billed;
 * - `deterministic` (the reference's engine): `max_tokens: 1` gives exactly one token.
 *
 * An operation marked `x-conformance: reference` (the gateway's prompt endpoint, whose body the specification
 * leaves to decision D1) has these checks in the full profile only.
 */
import { compileInline, describeErrors, modelEndpoint, type Operation, type Tier } from '../../contract/index.ts';
import { linkTo, NOT_STORED, notStored, withLinkedParameters } from '../links.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { propertySchema } from '../schema.ts';
import { completionTokens, expectClientError, expectSuccess, finishReason, isCutShort, textOf } from '../expectations.ts';
import { checkStopReason } from '../rules/messages-stream.ts';
import { longRequest, validRequest, withBody } from '../requests.ts';

type Maker = (rule: string, slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>) => Check[];

export function behaviourChecks(ctx: RunContext): Check[] {
  const { contract } = ctx;
  return contract.operations.flatMap((op) => {
    const reference = (op.raw as { 'x-conformance'?: unknown })['x-conformance'] === 'reference';
    const check: Maker = (rule, slug, title, extra, run) =>
      stated(ctx, rule, { id: `${op.operationId}/behaviour/${slug}`, operationId: op.operationId, family: 'behaviour', title, reference, ...extra, run });
    const counted = modelEndpoint(op) === op.path ? undefined : contract.operations.find((o) => o.path === modelEndpoint(op) && o.method === op.method);
    if (counted) return countMatchesUsage(op, counted, check);
    const body = op.raw.requestBody?.content['application/json']?.schema;
    if (!body) return storedChecks(ctx, op, check);
    const has = (field: string) => propertySchema(contract, body, field);
    const checks: Check[] = [];
    const temperature = has('temperature');
    if (typeof temperature?.minimum === 'number' && typeof temperature.maximum === 'number') {
      checks.push(...temperatureBounds(op, temperature.minimum, temperature.maximum, check));
    }
    if (has('max_tokens')) checks.push(...maxTokens(op, check));
    if (has('max_output_tokens')) checks.push(...maxOutputTokens(op, check));
    if (has('stop_sequences')) checks.push(...stopSequences(op, check));
    const format = has('text') ? 'text.format' : has('response_format') ? 'response_format' : undefined;
    if (format) checks.push(...structuredOutput(op, format, check));
    if (has('previous_response_id')) checks.push(...previousResponse(ctx, op, check));
    return checks;
  });
}

function temperatureBounds(op: Operation, min: number, max: number, check: Maker): Check[] {
  return check('sampling-bounds', 'temperature-bounds', `temperature ${min} and ${max} → success; ${min - 0.1} and ${max + 0.1} → 400`, {}, async (t) => {
    const base = validRequest(t, op);
    const rule = `sampling-bounds: temperature lies between ${min} and ${max}`;
    for (const value of [min, max]) {
      expectSuccess(t, op, await t.send(withBody(base, { temperature: value })), rule, `temperature ${value}`);
    }
    for (const value of [Math.round((min - 0.1) * 10) / 10, Math.round((max + 0.1) * 10) / 10]) {
      const ex = await t.send(withBody(base, { temperature: value }));
      if (t.status(ex, 400, rule, `temperature ${value}`)) expectClientError(t, op, ex, 400, rule);
    }
  });
}

function maxTokens(op: Operation, check: Maker): Check[] {
  return [
    // Half the unrestricted answer's length: an answer that reaches the limit was cut, and must say so. (An
    // implementation whose answers vary may end sooner on its own; that answer must then stay under the limit.)
    ...check('max-tokens', 'max-tokens', 'max_tokens below the natural length → at most max_tokens completion tokens, finish_reason length', { stateful: true }, async (t) => {
      const base = longRequest(t, op);
      const full = await t.send(base);
      if (!expectSuccess(t, op, full, 'max-tokens', 'without max_tokens')) return;
      const natural = completionTokens(full);
      if (natural === undefined || natural < 2) return t.skip(`the unrestricted answer has ${natural} completion tokens; nothing to cut`);
      const limit = Math.floor(natural / 2);
      const cut = await t.send(withBody(base, { max_tokens: limit }));
      if (!expectSuccess(t, op, cut, 'max-tokens', `max_tokens ${limit}`)) return;
      const used = completionTokens(cut);
      t.expect(used !== undefined && used <= limit, `max_tokens ${limit} gave ${used} completion tokens`, 'max-tokens', cut);
      const reason = finishReason(cut);
      if (used === limit) t.expect(isCutShort(reason), `an answer of max_tokens (${limit}) tokens ends with ${JSON.stringify(reason)}, not "length" (Anthropic: "max_tokens")`, 'max-tokens', cut);
    }),
    ...check('deterministic', 'max-tokens-one', 'max_tokens 1 → exactly one token of content', { stateful: true }, async (t) => {
      const ex = await t.send(withBody(longRequest(t, op), { max_tokens: 1 }));
      if (!expectSuccess(t, op, ex, 'max-tokens', 'max_tokens 1')) return;
      t.expect(completionTokens(ex) === 1, `max_tokens 1 gave ${completionTokens(ex)} completion tokens`, 'deterministic: max_tokens 1 gives one token', ex);
      const text = textOf(ex);
      t.expect(typeof text === 'string' && text.length > 0, `max_tokens 1 gave the content ${JSON.stringify(text)}`, 'deterministic: max_tokens 1 gives one token', ex);
    }),
  ];
}

function countMatchesUsage(op: Operation, target: Operation, check: Maker): Check[] {
  return check('count-matches-usage', 'count-matches-usage', `input_tokens equals the usage.input_tokens of the same request on ${target.path}`, { stateful: true }, async (t) => {
    const counted = validRequest(t, op);
    const count = await t.send(counted);
    if (!expectSuccess(t, op, count, 'count-matches-usage', 'the count')) return;
    const answered = await t.send({ ...withBody(counted, { max_tokens: 64 }), path: target.path });
    if (!expectSuccess(t, target, answered, 'count-matches-usage', `the same request on ${target.path}`)) return;
    const expected = (answered.response?.json as { usage?: { input_tokens?: unknown } }).usage?.input_tokens;
    const got = (count.response?.json as { input_tokens?: unknown }).input_tokens;
    t.expect(got === expected, `count_tokens says ${got}, the answer's usage.input_tokens is ${expected}`, 'count-matches-usage', answered);
  });
}

function maxOutputTokens(op: Operation, check: Maker): Check[] {
  return check('max-output-tokens', 'max-output-tokens', 'max_output_tokens below the natural length → status incomplete, incomplete_details.reason max_output_tokens', { stateful: true }, async (t) => {
    const base = withBody(longRequest(t, op), { store: false });
    const full = await t.send(base);
    if (!expectSuccess(t, op, full, 'max-output-tokens', 'without max_output_tokens')) return;
    const natural = completionTokens(full);
    if (natural === undefined || natural < 4) return t.skip(`the unrestricted answer has ${natural} output tokens; nothing to cut`);
    const limit = Math.floor(natural / 2);
    const cut = await t.send(withBody(base, { max_output_tokens: limit }));
    if (!expectSuccess(t, op, cut, 'max-output-tokens', `max_output_tokens ${limit}`)) return;
    const json = cut.response?.json as { status?: unknown; incomplete_details?: { reason?: unknown } | null; usage?: { output_tokens?: unknown } };
    const used = json.usage?.output_tokens;
    t.expect(typeof used === 'number' && used <= limit, `max_output_tokens ${limit} gave ${used} output tokens`, 'max-output-tokens', cut);
    const incomplete = json.status === 'incomplete' && json.incomplete_details?.reason === 'max_output_tokens';
    if (used === limit || json.status === 'incomplete') {
      t.expect(incomplete, `a response cut by max_output_tokens has status ${JSON.stringify(json.status)} and incomplete_details ${JSON.stringify(json.incomplete_details)}`, 'max-output-tokens', cut);
    }
  });
}

/**
 * A stop sequence taken from the middle of the unrestricted answer: the answer stops before it (it never
 * holds it), and when it stopped there it says so, naming the sequence.
 */
function stopSequences(op: Operation, check: Maker): Check[] {
  return check('stop-reasons', 'stop-sequence', 'a stop sequence from the middle of the answer → the answer ends before it, stop_reason stop_sequence naming it', { stateful: true }, async (t) => {
    const base = longRequest(t, op);
    const full = await t.send(base);
    if (!expectSuccess(t, op, full, 'stop-reasons', 'without stop_sequences')) return;
    const words = String(textOf(full) ?? '').split(/\s+/).filter((w) => /^[A-Za-z]{4,}$/.test(w));
    const sequence = words[Math.floor(words.length / 2)];
    if (!sequence) return t.skip('the unrestricted answer has no word to stop at');
    const ex = await t.send(withBody(base, { stop_sequences: [sequence] }));
    if (!expectSuccess(t, op, ex, 'stop-reasons', `stop_sequences ["${sequence}"]`)) return;
    const json = ex.response?.json as { content?: Array<{ type?: unknown }>; stop_reason?: unknown; stop_sequence?: unknown };
    const text = String(textOf(ex) ?? '');
    t.expect(!text.includes(sequence), `the answer holds the stop sequence ${JSON.stringify(sequence)}`, 'stop-reasons: the answer ends before a stop sequence', ex);
    checkStopReason(t, json.content ?? [], json.stop_reason, json.stop_sequence, ex);
    if (json.stop_reason === 'stop_sequence') t.expect(json.stop_sequence === sequence, `stop_sequence is ${JSON.stringify(json.stop_sequence)}, the sequence sent is ${JSON.stringify(sequence)}`, 'stop-reasons', ex);
    else if (t.ctx.protocol.rule('deterministic')) t.fail(`the answer that held ${JSON.stringify(sequence)} now stops with ${JSON.stringify(json.stop_reason)}`, 'deterministic: the same request stops at the same place', ex);
  });
}

/** A JSON Schema the structured-output check asks for (chat's `response_format` has no example of its own). */
const CITY_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, country: { type: 'string' }, best_months: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['name', 'country', 'best_months'],
  additionalProperties: false,
};

/** Structured output through the Responses API's `text.format`, or chat's `response_format`: a JSON Schema, and a JSON object. */
function structuredOutput(op: Operation, field: 'text.format' | 'response_format', check: Maker): Check[] {
  const responses = field === 'text.format';
  // json_object asks the prompt to say JSON (OpenAI refuses it otherwise).
  const PROMPT = 'Describe a city I could visit in spring, as JSON.';
  const ask = (t: Tester, format: Record<string, unknown>): OutgoingRequest => {
    // No token limit: JSON cut short is not JSON.
    const body = { ...(validRequest(t, op).json as Record<string, unknown>) };
    for (const limit of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) delete body[limit];
    const req = { ...validRequest(t, op), json: body };
    return withBody(req, responses ? { text: { format }, store: false, input: PROMPT } : { response_format: format, messages: [{ role: 'user', content: PROMPT }] });
  };
  const parsed = (t: Tester, ex: Exchange): unknown => {
    const text = textOf(ex);
    try {
      return JSON.parse(String(text));
    } catch {
      t.fail(`the output is not JSON: ${JSON.stringify(String(text).slice(0, 120))}`, 'structured-output', ex);
      return undefined;
    }
  };
  return [
    ...check('structured-output', 'structured-output', `${field} json_schema → output JSON valid against the schema`, { stateful: true }, async (t) => {
      const format = responses ? { type: 'json_schema', name: 'city', strict: true, schema: CITY_SCHEMA } : { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: CITY_SCHEMA } };
      const ex = await t.send(ask(t, format));
      if (!expectSuccess(t, op, ex, 'structured-output', 'a structured request')) return;
      const value = parsed(t, ex);
      if (value === undefined) return;
      const validate = compileInline(CITY_SCHEMA);
      t.expect(validate(value) === true, `the output does not validate against the schema: ${describeErrors(validate.errors)}`, 'structured-output', ex);
    }),
    ...check('structured-output', 'json-object', `${field} json_object → output is a JSON object`, { stateful: true }, async (t) => {
      const ex = await t.send(ask(t, { type: 'json_object' }));
      if (!expectSuccess(t, op, ex, 'structured-output', 'a json_object request')) return;
      const value = parsed(t, ex);
      if (value === undefined) return;
      t.expect(typeof value === 'object' && value !== null && !Array.isArray(value), `the output is JSON but not an object: ${JSON.stringify(value).slice(0, 120)}`, 'structured-output: json_object gives a JSON object', ex);
    }),
  ];
}

/** The operations that read and delete what `op` stores (linked from its answer), when there are. */
function storedBy(ctx: RunContext, op: Operation): { read?: Operation; remove?: Operation } {
  const linked = ctx.contract.operations.filter((o) => linkTo(ctx.contract, o)?.source === op);
  return { read: linked.find((o) => o.method === 'get'), remove: linked.find((o) => o.method === 'delete') };
}

/** Checks on an operation that reads what another creates (a stored response): not kept with store false, gone once deleted. */
function storedChecks(ctx: RunContext, op: Operation, check: Maker): Check[] {
  const link = linkTo(ctx.contract, op);
  if (!link || op.method !== 'get') return [];
  const remover = storedBy(ctx, link.source).remove;
  const checks: Check[] = [
    ...check('stored-responses', 'not-stored', `made with store: false → ${op.method.toUpperCase()} ${op.path} answers 404`, { stateful: true }, async (t) => {
      const req = await withLinkedParameters(t.ctx, validRequest(t, op), t.ctx.keys.best()?.key, (r) => t.send(r), { store: false });
      if (typeof req === 'string') return t.skip(req);
      const ex = await t.send(req);
      if (t.status(ex, 404, 'stored-responses: store false keeps nothing')) t.shape(op, ex);
    }),
  ];
  if (remover) {
    checks.push(
      ...check('stored-responses', 'deleted', `after DELETE ${op.path} → ${op.method.toUpperCase()} answers 404, and a second DELETE too`, { stateful: true }, async (t) => {
        const req = await withLinkedParameters(t.ctx, validRequest(t, op), t.ctx.keys.best()?.key, (r) => t.send(r));
        if (typeof req === 'string') return t.skip(req);
        const deleted = await t.send({ ...req, method: 'DELETE' });
        if (!expectSuccess(t, remover, deleted, 'stored-responses', 'the delete')) return;
        const after = await t.send(req);
        if (t.status(after, 404, 'stored-responses: a deleted response is gone', 'read after delete')) t.shape(op, after);
        const again = await t.send({ ...req, method: 'DELETE' });
        if (t.status(again, 404, 'stored-responses: a deleted response is gone', 'second delete')) t.shape(remover, again);
      }),
    );
  }
  return checks;
}

/**
 * `previous_response_id`, the third way to reach a stored response: it continues one of the key's own, and
 * refuses (4xx) one sent with `store: false`, one deleted, and another key's.
 */
function previousResponse(ctx: RunContext, op: Operation, check: Maker): Check[] {
  const { remove } = storedBy(ctx, op);
  type Key = { key: string; tier?: Tier } | undefined;
  const as = (key: Key) => (key === undefined ? {} : { key: key.key, ...(key.tier ? { tier: key.tier } : {}) });
  const create = async (t: Tester, key: Key, patch: Record<string, unknown> = {}): Promise<string | undefined> => {
    const ex = await t.send(withBody(validRequest(t, op, undefined, as(key)), patch));
    if (!expectSuccess(t, op, ex, 'stored-responses', 'the response to continue')) return undefined;
    if (patch.store !== false && notStored(ex)) t.skip(NOT_STORED);
    const id = (ex.response?.json as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  };
  const refused = async (t: Tester, id: string, why: string, rule: string, key?: Key) => {
    const req = withBody(validRequest(t, op, undefined, as(key)), { previous_response_id: id });
    const ex = await t.send(req);
    if (t.status(ex, [400, 404], rule, `previous_response_id of ${why}`)) t.shape(op, ex);
  };
  return [
    ...check('stored-responses', 'previous-response', 'previous_response_id of a stored response → a success that names it', { stateful: true }, async (t) => {
      const id = await create(t, undefined);
      if (!id) return;
      const ex = await t.send(withBody(validRequest(t, op), { previous_response_id: id }));
      if (!expectSuccess(t, op, ex, 'stored-responses: previous_response_id continues a stored response', 'the continuation')) return;
      const named = (ex.response?.json as { previous_response_id?: unknown }).previous_response_id;
      t.expect(named === undefined || named === id, `the continuation names previous_response_id ${JSON.stringify(named)}, not ${id}`, 'stored-responses', ex);
    }),
    ...check('stored-responses', 'previous-response-gone', `previous_response_id of a response made with store: false${remove ? ', or deleted,' : ''} → 400 or 404`, { stateful: true }, async (t) => {
      const unstored = await create(t, undefined, { store: false });
      if (unstored) await refused(t, unstored, 'a response made with store: false', 'stored-responses: store false keeps nothing');
      if (!remove) return;
      const id = await create(t, undefined);
      if (!id) return;
      const deleted = await t.send({ ...validRequest(t, remove), path: remove.path.replace(/\{\w+\}/, encodeURIComponent(id)) });
      if (!expectSuccess(t, remove, deleted, 'stored-responses', 'the delete')) return;
      await refused(t, id, 'a deleted response', 'stored-responses: a deleted response is gone');
    }),
    ...check('stored-private', 'previous-response-other-key', "previous_response_id of another key's stored response → 400 or 404", { stateful: true }, async (t) => {
      const [owner, other] = [t.ctx.keys.best(), t.ctx.keys.keys.find((k) => k.key !== t.ctx.keys.best()?.key)];
      if (!owner || !other) return t.skip('needs two keys (--key twice)');
      const id = await create(t, owner);
      if (id) await refused(t, id, "another key's response", 'stored-private', other);
    }),
  ];
}
