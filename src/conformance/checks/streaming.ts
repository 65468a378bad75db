/**
 * Streamed answers. OpenAI's framing (D17): `text/event-stream`, data-only events each valid against the
 * chunk schema (the stream schema's `contentSchema`), the role in the first delta, `finish_reason` on the
 * last content chunk, the usage chunk only with `stream_options.include_usage`, `data: [DONE]` last.
 * Anthropic's (D27), for the operations whose events are `AnthropicStreamEvent`, and OpenAI's Responses
 * (D29), for those whose events are `ResponseStreamEvent`: named events in their grammar
 * (message-stream-rules.ts, response-stream-rules.ts). In the full profile, both reassemble to the non-streamed answer of the
 * same request, tool calls included.
 */
import { contract, escapePointer, type Operation } from '../../contract/index.ts';
import type { Check, Tester } from '../check.ts';
import { requestExamples } from '../examples.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { schemaLocation } from '../schema.ts';
import { checkedOperations } from '../scope.ts';
import { parseEventStream } from '../../client/sse.ts';
import { analyseStream } from '../stream-rules.ts';
import { analyseMessageStream, type StreamedMessage } from '../message-stream-rules.ts';
import { analyseResponseStream } from '../response-stream-rules.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { completionTokens, expectSuccess, finishReason, textOf } from '../expectations.ts';
import { longRequest, validRequest, withBody, withStreamAccept } from '../requests.ts';

const SSE = 'text/event-stream';
const RULE = 'D17';

/** Where the chunk schema of an operation's event stream lives, when its 200 offers one. */
function chunkSchemaPointer(op: Operation): string | undefined {
  if (!op.responses['200']?.content?.[SSE]) return undefined;
  const streamPointer = contract.canonicalPointer(`${op.pointer}/responses/200/content/${escapePointer(SSE)}/schema`);
  const stream = contract.deref<Record<string, unknown>>({ $ref: `#${streamPointer}` });
  const content = stream.contentSchema as { $ref?: string } | undefined;
  if (!content) return undefined;
  return content.$ref ? content.$ref.replace(/^#/, '') : `${streamPointer}/contentSchema`;
}

/** The event schema of Anthropic's streams. */
const ANTHROPIC_EVENTS = '/components/schemas/AnthropicStreamEvent';
/** The event schema of the Responses API's streams. */
const RESPONSE_EVENTS = '/components/schemas/ResponseStreamEvent';

/** The same request, streamed (with `Accept: text/event-stream` for a mock, which picks by that). */
function sendStreamed(t: Tester, req: OutgoingRequest): Promise<Exchange> {
  return t.send(withStreamAccept(t, withBody(req, { stream: true })));
}

type CheckMaker = (slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>) => Check;

export function streamingChecks(): Check[] {
  return checkedOperations.flatMap((op) => {
    const chunkPointer = chunkSchemaPointer(op);
    if (!chunkPointer) return [];
    const check: CheckMaker = (slug, title, extra, run) => ({
      id: `${op.operationId}/streaming/${slug}`, operationId: op.operationId, family: 'streaming', title, ...extra, run,
    });
    if (chunkPointer === ANTHROPIC_EVENTS) return messageStreamChecks(op, check);
    if (chunkPointer === RESPONSE_EVENTS) return responseStreamChecks(op, check);
    return [
      // The mock answers every stream with the contract's default example, which has no usage chunk (as the
      // default request asks for none): only the stream without usage can be checked against it.
      check('with-usage', 'stream with include_usage → SSE, valid chunks, role first, finish_reason last, usage chunk, [DONE] last', { stateful: true }, async (t) => {
        const req = streamRequest(t, op, true);
        const ex = await t.send(req);
        if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseStream(t, ex, chunkPointer, { usage: true });
      }),
      check('without-usage', 'stream without stream_options → SSE, valid chunks, role first, finish_reason last, no usage chunk, [DONE] last', {}, async (t) => {
        const ex = await t.send(streamRequest(t, op, false));
        if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseStream(t, ex, chunkPointer, { usage: false });
      }),
      check('reassembly', 'streamed deltas reassemble to the non-streamed answer (temperature 0)', { reference: true, stateful: true }, async (t) => {
        const plain = longRequest(t, op);
        const whole = await t.send(plain);
        if (!expectSuccess(t, op, whole, RULE, 'the non-streamed request')) return;
        const streamed = await sendStreamed(t, plain);
        if (!expectSuccess(t, op, streamed, RULE, 'the streamed request')) return;
        const chunks = analyseStream(t, streamed, chunkPointer, { usage: false });
        const content = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
        t.expect(content === textOf(whole), `the deltas give ${JSON.stringify(content.slice(0, 200))}, the non-streamed answer is ${JSON.stringify(String(textOf(whole)).slice(0, 200))}`, 'Streaming: concatenating the content deltas gives exactly the non-streamed answer', streamed);
        const last = [...chunks].reverse().find((c) => (c.choices?.length ?? 0) > 0);
        t.expect(last?.choices?.[0]?.finish_reason === finishReason(whole), `the stream ends with finish_reason ${JSON.stringify(last?.choices?.[0]?.finish_reason)}, the non-streamed answer with ${JSON.stringify(finishReason(whole))}`, RULE, streamed);
      }),
    ];
  });
}

/** The contract's streaming example (or the first one made streaming), with or without the usage chunk. */
function streamRequest(t: Tester, op: Operation, usage: boolean): OutgoingRequest {
  const examples = requestExamples(op);
  const example = examples.find((e) => e.body?.stream === true) ?? examples[0];
  const base = validRequest(t, op, example);
  const body: Record<string, unknown> = { ...(base.json as Record<string, unknown>), stream: true };
  if (usage) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return withStreamAccept(t, { ...base, json: body });
}

/** Anthropic's stream (D27): the grammar, and the same message as the JSON answer, text and tool calls. */
function messageStreamChecks(op: Operation, check: CheckMaker): Check[] {
  const RULE27 = 'D27';
  const blocksOf = (ex: Exchange) => ((ex.response?.json as { content?: Array<Record<string, unknown>> }).content ?? []);
  return [
    check('grammar', 'stream → named events in their grammar: message_start, blocks (start, deltas, stop), message_delta, message_stop', {}, async (t) => {
      const examples = requestExamples(op);
      const example = examples.find((e) => e.body?.stream === true) ?? examples[0];
      const ex = await sendStreamed(t, validRequest(t, op, example));
      if (expectSuccess(t, op, ex, RULE27, 'a streamed request')) analyseMessageStream(t, ex, ANTHROPIC_EVENTS);
    }),
    check('reassembly', 'text deltas reassemble to the non-streamed message, with its stop reason and usage (temperature 0)', { reference: true, stateful: true }, async (t) => {
      const plain = longRequest(t, op);
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE27, 'the non-streamed request')) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE27, 'the streamed request')) return;
      const message = analyseMessageStream(t, ex, ANTHROPIC_EVENTS);
      if (!message) return;
      const text = message.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
      t.expect(text === textOf(whole), `the deltas give ${JSON.stringify(text.slice(0, 200))}, the non-streamed answer is ${JSON.stringify(String(textOf(whole)).slice(0, 200))}`, 'D27: the text deltas concatenate to exactly the non-streamed answer', ex);
      t.expect(message.stopReason === finishReason(whole), `the stream stops with ${JSON.stringify(message.stopReason)}, the non-streamed answer with ${JSON.stringify(finishReason(whole))}`, RULE27, ex);
      t.expect(message.outputTokens === completionTokens(whole), `the stream reports ${message.outputTokens} output tokens, the non-streamed answer ${completionTokens(whole)}`, RULE27, ex);
    }),
    check('tool-input', 'a tool call streamed: the partial_json pieces add up to the non-streamed tool_use input', { reference: true, stateful: true }, async (t) => {
      const example = requestExamples(op).find((e) => Array.isArray(e.body?.tools) && (e.body?.messages as unknown[] | undefined)?.length === 1);
      if (!example) return t.skip('the contract has no request example with tools and one message');
      const plain = withBody(validRequest(t, op, example), { temperature: 0, tool_choice: { type: 'any' } });
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE27, 'the non-streamed request')) return;
      const calls = blocksOf(whole).filter((b) => b.type === 'tool_use');
      if (!t.expect(calls.length > 0, 'tool_choice {type: any} gave no tool_use block', 'D27: tool_choice any', whole)) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE27, 'the streamed request')) return;
      const message: StreamedMessage | undefined = analyseMessageStream(t, ex, ANTHROPIC_EVENTS);
      if (!message) return;
      const streamedCalls = message.blocks.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, input: b.input }] : []));
      const expected = calls.map((b) => ({ name: b.name, input: b.input }));
      t.expect(canonicalJson(streamedCalls) === canonicalJson(expected), `the stream's tool calls ${JSON.stringify(streamedCalls).slice(0, 200)} differ from the non-streamed ${JSON.stringify(expected).slice(0, 200)}`, 'D27: input_json_delta pieces concatenate to the tool input', ex);
    }),
  ];
}

/** The Responses API's stream (D29): the grammar, and the same response as the JSON answer. */
function responseStreamChecks(op: Operation, check: CheckMaker): Check[] {
  const RULE29 = 'D29';
  const outputOf = (response: unknown) =>
    ((response as { output?: Array<Record<string, unknown>> } | undefined)?.output ?? []).map((item) =>
      item.type === 'message' ? { type: 'message', text: (item.content as Array<{ text?: string }>).map((c) => c.text).join('') } : { type: item.type, name: item.name, arguments: item.arguments });
  const same = (t: Tester, whole: Exchange, ex: Exchange, final: unknown) => {
    const [a, b] = [outputOf(final), outputOf(whole.response?.json)];
    t.expect(canonicalJson(a) === canonicalJson(b), `the stream's output ${JSON.stringify(a).slice(0, 200)} differs from the non-streamed ${JSON.stringify(b).slice(0, 200)}`, 'D29: the deltas add up exactly to the final response', ex);
    const usage = (r: unknown) => (r as { usage?: { output_tokens?: unknown } } | undefined)?.usage?.output_tokens;
    t.expect(usage(final) === usage(whole.response?.json), `the stream reports ${usage(final)} output tokens, the non-streamed answer ${usage(whole.response?.json)}`, RULE29, ex);
  };
  return [
    check('grammar', 'stream → named events with rising sequence_number: created, in_progress, items added / deltas / done, completed', {}, async (t) => {
      const examples = requestExamples(op);
      const example = examples.find((e) => e.body?.stream === true) ?? examples[0];
      const ex = await sendStreamed(t, validRequest(t, op, example));
      if (expectSuccess(t, op, ex, RULE29, 'a streamed request')) analyseResponseStream(t, ex, RESPONSE_EVENTS);
    }),
    check('reassembly', 'text deltas reassemble to the non-streamed response, with its usage (temperature 0)', { reference: true, stateful: true }, async (t) => {
      const plain = withBody(longRequest(t, op), { store: false });
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE29, 'the non-streamed request')) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE29, 'the streamed request')) return;
      const result = analyseResponseStream(t, ex, RESPONSE_EVENTS);
      if (result) same(t, whole, ex, result.response);
    }),
    check('function-call', 'a function call streamed: the argument deltas add up to the non-streamed arguments', { reference: true, stateful: true }, async (t) => {
      const example = requestExamples(op).find((e) => Array.isArray(e.body?.tools) && typeof e.body?.input === 'string');
      if (!example) return t.skip('the contract has no request example with tools and a string input');
      const plain = withBody(validRequest(t, op, example), { temperature: 0, tool_choice: 'required', store: false });
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE29, 'the non-streamed request')) return;
      const calls = outputOf(whole.response?.json).filter((i) => i.type === 'function_call');
      if (!t.expect(calls.length > 0, 'tool_choice required gave no function_call item', 'D29: tool_choice required', whole)) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE29, 'the streamed request')) return;
      const result = analyseResponseStream(t, ex, RESPONSE_EVENTS);
      if (result) same(t, whole, ex, result.response);
    }),
  ];
}
