/**
 * Streamed answers, in the grammar the stream's schema names (`x-event-stream.grammar`):
 *
 * - `chat-stream` (OpenAI's chat chunks): data-only events, the role first, `finish_reason` last, the usage
 *   chunk only with `stream_options.include_usage`, `data: [DONE]` last; tool call deltas opened by their index,
 *   id and name, their arguments adding up to JSON (rules/chat-stream.ts);
 * - `messages-stream` (Anthropic's): named events in their grammar, the stream counting the same input
 *   tokens as the answer that is not streamed (`message_delta`'s cumulative count, else `message_start`'s),
 *   `tool_use` as the stop reason of a tool call (rules/messages-stream.ts);
 * - `responses-stream` (OpenAI's Responses): named events with a rising `sequence_number`, items, parts and
 *   deltas paired, each lifecycle event of its status (rules/responses-stream.ts).
 *
 * Each grammar is one entry of `GRAMMARS`: the checks planned for it, and how the proxy reads a stream of it.
 *
 * Where the description states that its implementation is deterministic (`deterministic`: the reference's
 * engine), streamed deltas also reassemble to the non-streamed answer of the same request, tool calls included.
 */
import { escapePointer, type Operation } from '../../contract/index.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import { requestExamples, type RequestExample } from '../examples.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { analyseChatStream } from '../rules/chat-stream.ts';
import { analyseMessageStream, checkStopReason, type StreamedMessage } from '../rules/messages-stream.ts';
import { analyseResponseStream } from '../rules/responses-stream.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { completionTokens, expectSuccess, finishReason, textOf } from '../expectations.ts';
import { longRequest, validRequest, withBody, withStreamAccept } from '../requests.ts';

const SSE = 'text/event-stream';

/** An operation's event stream: the schema of one event, and the grammar its events follow. */
export interface EventStream {
  eventPointer: string;
  grammar: string;
}

/** The event stream an operation's 200 offers, when its schema declares one (`contentSchema`, `x-event-stream`). */
function eventStream(ctx: RunContext, op: Operation): EventStream | undefined {
  if (!op.responses['200']?.content?.[SSE]) return undefined;
  const contract = ctx.contract;
  const streamPointer = contract.canonicalPointer(`${op.pointer}/responses/200/content/${escapePointer(SSE)}/schema`);
  const stream = contract.deref<Record<string, unknown>>({ $ref: `#${streamPointer}` });
  const content = stream.contentSchema as { $ref?: string } | undefined;
  const grammar = (stream['x-event-stream'] as { grammar?: unknown } | undefined)?.grammar;
  if (!content || typeof grammar !== 'string') return undefined;
  return { eventPointer: content.$ref ? content.$ref.replace(/^#/, '') : `${streamPointer}/contentSchema`, grammar };
}

/** The same request, streamed (with `Accept: text/event-stream` for a mock, which picks by that). */
function sendStreamed(t: Tester, req: OutgoingRequest): Promise<Exchange> {
  return t.send(withStreamAccept(t, withBody(req, { stream: true })));
}

/** A request answered whole, then streamed; undefined (the failure recorded) when either is not a success. */
async function wholeAndStreamed(t: Tester, op: Operation, plain: OutgoingRequest, rule: string): Promise<{ whole: Exchange; ex: Exchange } | undefined> {
  const whole = await t.send(plain);
  if (!expectSuccess(t, op, whole, rule, 'the non-streamed request')) return undefined;
  const ex = await sendStreamed(t, plain);
  if (!expectSuccess(t, op, ex, rule, 'the streamed request')) return undefined;
  return { whole, ex };
}

/** The description's streaming example, else its first. */
function streamExample(t: Tester, op: Operation): RequestExample | undefined {
  const examples = requestExamples(t.ctx.contract, op);
  return examples.find((e) => e.body?.stream === true) ?? examples[0];
}

/** The description's example that offers tools to a conversation that has no tool result yet. */
export function toolsExample(t: Tester, op: Operation): RequestExample {
  const example = requestExamples(t.ctx.contract, op).find(
    (e) => Array.isArray(e.body?.tools) && e.body.tools.length > 0 && !/"(tool_result|function_call_output)"|"role":"tool"/.test(JSON.stringify(e.body)),
  );
  if (!example) t.skip('the description has no request example with tools and no tool result');
  return example;
}

/** Plans one check of an operation's stream, under `rule` when the description states it. */
export type Maker = (rule: string, slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>) => Check[];

/** What the suite does with the streams of one grammar. */
export interface StreamGrammar {
  /** The checks of an operation whose stream follows the grammar (this family's). */
  checks(op: Operation, eventPointer: string, check: Maker): Check[];
  /** Checks one streamed answer against the grammar, as the proxy does with a stream it forwards; `request`: the body that asked for it. */
  analyse(t: Tester, ex: Exchange, eventPointer: string, request: unknown): void;
}

/** Each grammar a stream's schema may name (`x-event-stream.grammar`): a grammar the suite knows is one entry here. */
const GRAMMARS: Record<string, StreamGrammar> = {
  'chat-stream': {
    checks: chatStreamChecks,
    analyse: (t, ex, pointer, request) => {
      const usage = (request as { stream_options?: { include_usage?: unknown } } | undefined)?.stream_options?.include_usage === true;
      analyseChatStream(t, ex, pointer, { usage });
    },
  },
  'messages-stream': { checks: messageStreamChecks, analyse: (t, ex, pointer) => void analyseMessageStream(t, ex, pointer) },
  'responses-stream': { checks: responseStreamChecks, analyse: (t, ex, pointer) => void analyseResponseStream(t, ex, pointer) },
};

/** An operation's event stream and its grammar, when the suite knows the grammar and the description states it as a rule. */
export function streamGrammar(ctx: RunContext, op: Operation): { stream: EventStream; grammar: StreamGrammar } | undefined {
  const stream = eventStream(ctx, op);
  if (!stream || !Object.hasOwn(GRAMMARS, stream.grammar) || !ctx.protocol.rule(stream.grammar)) return undefined;
  return { stream, grammar: GRAMMARS[stream.grammar]! };
}

export function streamingChecks(ctx: RunContext): Check[] {
  return ctx.contract.operations.flatMap((op) => {
    const found = streamGrammar(ctx, op);
    if (!found) return [];
    const check: Maker = (rule, slug, title, extra, run) =>
      stated(ctx, rule, { id: `${op.operationId}/streaming/${slug}`, operationId: op.operationId, family: 'streaming', title, ...extra, run });
    return found.grammar.checks(op, found.stream.eventPointer, check);
  });
}

function chatStreamChecks(op: Operation, chunkPointer: string, check: Maker): Check[] {
  const RULE = 'chat-stream';
  return [
    // The mock answers every stream with the contract's default example, which has no usage chunk (as the
    // default request asks for none): only the stream without usage can be checked against it.
    ...check(RULE, 'with-usage', 'stream with include_usage → SSE, valid chunks, role first, finish_reason last, usage chunk, [DONE] last', { stateful: true }, async (t) => {
      const ex = await t.send(streamRequest(t, op, true));
      if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseChatStream(t, ex, chunkPointer, { usage: true });
    }),
    ...check(RULE, 'without-usage', 'stream without stream_options → SSE, valid chunks, role first, finish_reason last, no usage chunk, [DONE] last', {}, async (t) => {
      const ex = await t.send(streamRequest(t, op, false));
      if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseChatStream(t, ex, chunkPointer, { usage: false });
    }),
    ...check(RULE, 'tool-calls', 'a streamed tool call (tool_choice required): opened by its index, id and name, its arguments adding up to JSON', { stateful: true }, async (t) => {
      const ex = await sendStreamed(t, withBody(validRequest(t, op, toolsExample(t, op)), { tool_choice: 'required' }));
      if (!expectSuccess(t, op, ex, RULE, 'a streamed request with tool_choice required')) return;
      const { calls } = analyseChatStream(t, ex, chunkPointer, { usage: false });
      t.expect(calls.length > 0, 'tool_choice "required" streamed no tool call', `${RULE}: tool_choice required makes the model call a tool`, ex);
    }),
    ...check('deterministic', 'reassembly', 'streamed deltas reassemble to the non-streamed answer (temperature 0)', { stateful: true }, async (t) => {
      const plain = longRequest(t, op);
      const both = await wholeAndStreamed(t, op, plain, RULE);
      if (!both) return;
      const { whole, ex: streamed } = both;
      const { chunks } = analyseChatStream(t, streamed, chunkPointer, { usage: false });
      const content = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
      t.expect(content === textOf(whole), `the deltas give ${JSON.stringify(content.slice(0, 200))}, the non-streamed answer is ${JSON.stringify(String(textOf(whole)).slice(0, 200))}`, 'deterministic: concatenating the content deltas gives exactly the non-streamed answer', streamed);
      const last = [...chunks].reverse().find((c) => (c.choices?.length ?? 0) > 0);
      t.expect(last?.choices?.[0]?.finish_reason === finishReason(whole), `the stream ends with finish_reason ${JSON.stringify(last?.choices?.[0]?.finish_reason)}, the non-streamed answer with ${JSON.stringify(finishReason(whole))}`, 'deterministic', streamed);
    }),
  ];
}

/** The description's streaming example (or the first one made streaming), with or without the usage chunk. */
function streamRequest(t: Tester, op: Operation, usage: boolean): OutgoingRequest {
  const base = validRequest(t, op, streamExample(t, op));
  const body: Record<string, unknown> = { ...(base.json as Record<string, unknown>), stream: true };
  if (usage) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return withStreamAccept(t, { ...base, json: body });
}

/** Anthropic's stream: the grammar, the input tokens and stop reason of a stream, and (deterministic) the same message as the JSON answer. */
function messageStreamChecks(op: Operation, eventPointer: string, check: Maker): Check[] {
  const RULE = 'messages-stream';
  const blocksOf = (ex: Exchange) => ((ex.response?.json as { content?: Array<Record<string, unknown>> }).content ?? []);
  const toolRequest = (t: Tester) => withBody(validRequest(t, op, toolsExample(t, op)), { temperature: 0, tool_choice: { type: 'any' } });
  /** A long request answered whole, then streamed, with the message the stream adds up to; undefined (the failure recorded) when either fails. */
  const longMessage = async (t: Tester) => {
    const both = await wholeAndStreamed(t, op, longRequest(t, op), RULE);
    const message = both && analyseMessageStream(t, both.ex, eventPointer);
    return message && { ...both, message };
  };
  return [
    ...check(RULE, 'grammar', 'stream → named events in their grammar: message_start, blocks (start, deltas, stop), message_delta, message_stop', {}, async (t) => {
      const ex = await sendStreamed(t, validRequest(t, op, streamExample(t, op)));
      if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseMessageStream(t, ex, eventPointer);
    }),
    ...check(RULE, 'input-tokens', "the stream counts the input tokens the same request is counted when not streamed (message_delta's input_tokens, else message_start's); message_delta its output tokens", { stateful: true }, async (t) => {
      const streamed = await longMessage(t);
      if (!streamed) return;
      const { whole, ex, message } = streamed;
      const input = (whole.response?.json as { usage?: { input_tokens?: unknown } }).usage?.input_tokens;
      // The final count: message_delta's input_tokens, cumulative, where an upstream's count known only at the
      // end differs from message_start's (D31); message_start's otherwise.
      t.expect(message.inputTokens === input, `the stream counts ${JSON.stringify(message.inputTokens)} input tokens, the same request not streamed ${JSON.stringify(input)}`, `${RULE}: message_start carries the usage of the input (message_delta the final count, when it differs)`, ex);
      t.expect(typeof message.outputTokens === 'number', `message_delta carries output_tokens ${JSON.stringify(message.outputTokens)}`, `${RULE}: message_delta carries the usage of the output`, ex);
    }),
    ...check('stop-reasons', 'tool-use', 'a tool call (tool_choice any), streamed and not: tool_use blocks, stop_reason tool_use', { stateful: true }, async (t) => {
      const plain = toolRequest(t);
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, 'stop-reasons', 'the non-streamed request')) return;
      const json = whole.response?.json as { content?: Array<{ type?: unknown }>; stop_reason?: unknown; stop_sequence?: unknown };
      t.expect(blocksOf(whole).some((b) => b.type === 'tool_use'), 'tool_choice {type: any} gave no tool_use block', 'stop-reasons: tool_choice any makes the model use a tool', whole);
      checkStopReason(t, json.content ?? [], json.stop_reason, json.stop_sequence, whole);
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, 'stop-reasons', 'the streamed request')) return;
      const message = analyseMessageStream(t, ex, eventPointer);
      if (message) t.expect(message.blocks.some((b) => b.type === 'tool_use'), 'tool_choice {type: any} streamed no tool_use block', 'stop-reasons: tool_choice any makes the model use a tool', ex);
    }),
    ...check('deterministic', 'reassembly', 'text deltas reassemble to the non-streamed message, with its stop reason and usage (temperature 0)', { stateful: true }, async (t) => {
      const streamed = await longMessage(t);
      if (!streamed) return;
      const { whole, ex, message } = streamed;
      const text = message.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
      t.expect(text === textOf(whole), `the deltas give ${JSON.stringify(text.slice(0, 200))}, the non-streamed answer is ${JSON.stringify(String(textOf(whole)).slice(0, 200))}`, 'deterministic: the text deltas concatenate to exactly the non-streamed answer', ex);
      t.expect(message.stopReason === finishReason(whole), `the stream stops with ${JSON.stringify(message.stopReason)}, the non-streamed answer with ${JSON.stringify(finishReason(whole))}`, 'deterministic', ex);
      t.expect(message.outputTokens === completionTokens(whole), `the stream reports ${message.outputTokens} output tokens, the non-streamed answer ${completionTokens(whole)}`, 'deterministic', ex);
    }),
    ...check('deterministic', 'tool-input', 'a tool call streamed: the partial_json pieces add up to the non-streamed tool_use input', { stateful: true }, async (t) => {
      const plain = toolRequest(t);
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE, 'the non-streamed request')) return;
      const calls = blocksOf(whole).filter((b) => b.type === 'tool_use');
      if (!t.expect(calls.length > 0, 'tool_choice {type: any} gave no tool_use block', 'stop-reasons: tool_choice any makes the model use a tool', whole)) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE, 'the streamed request')) return;
      const message: StreamedMessage | undefined = analyseMessageStream(t, ex, eventPointer);
      if (!message) return;
      const streamedCalls = message.blocks.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, input: b.input }] : []));
      const expected = calls.map((b) => ({ name: b.name, input: b.input }));
      t.expect(canonicalJson(streamedCalls) === canonicalJson(expected), `the stream's tool calls ${JSON.stringify(streamedCalls).slice(0, 200)} differ from the non-streamed ${JSON.stringify(expected).slice(0, 200)}`, 'deterministic: input_json_delta pieces concatenate to the tool input', ex);
    }),
  ];
}

/** The Responses API's stream: the grammar, a function call streamed, and (deterministic) the same response as the JSON answer. */
function responseStreamChecks(op: Operation, eventPointer: string, check: Maker): Check[] {
  const RULE = 'responses-stream';
  const outputOf = (response: unknown) =>
    ((response as { output?: Array<Record<string, unknown>> } | undefined)?.output ?? []).map((item) =>
      item.type === 'message' ? { type: 'message', text: (item.content as Array<{ text?: string }>).map((c) => c.text).join('') } : { type: item.type, name: item.name, arguments: item.arguments });
  const same = (t: Tester, whole: Exchange, ex: Exchange, final: unknown) => {
    const [a, b] = [outputOf(final), outputOf(whole.response?.json)];
    t.expect(canonicalJson(a) === canonicalJson(b), `the stream's output ${JSON.stringify(a).slice(0, 200)} differs from the non-streamed ${JSON.stringify(b).slice(0, 200)}`, 'deterministic: the deltas add up exactly to the final response', ex);
    const usage = (r: unknown) => (r as { usage?: { output_tokens?: unknown } } | undefined)?.usage?.output_tokens;
    t.expect(usage(final) === usage(whole.response?.json), `the stream reports ${usage(final)} output tokens, the non-streamed answer ${usage(whole.response?.json)}`, 'deterministic', ex);
  };
  const toolRequest = (t: Tester) => withBody(validRequest(t, op, toolsExample(t, op)), { temperature: 0, tool_choice: 'required', store: false });
  return [
    ...check(RULE, 'grammar', 'stream → named events with rising sequence_number: created, in_progress, items added / parts / deltas / done, completed', {}, async (t) => {
      const ex = await sendStreamed(t, validRequest(t, op, streamExample(t, op)));
      if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseResponseStream(t, ex, eventPointer);
    }),
    ...check(RULE, 'function-call-stream', 'a function call streamed (tool_choice required): a function_call item whose argument deltas add up to JSON', { stateful: true }, async (t) => {
      const ex = await sendStreamed(t, toolRequest(t));
      if (!expectSuccess(t, op, ex, RULE, 'the streamed request')) return;
      const result = analyseResponseStream(t, ex, eventPointer);
      if (!result) return;
      const calls = (result.response.output ?? []).filter((i) => i.type === 'function_call');
      if (!t.expect(calls.length > 0, 'tool_choice "required" streamed no function_call item', `${RULE}: tool_choice required makes the model call a tool`, ex)) return;
      for (const call of calls) {
        try {
          JSON.parse(String(call.arguments));
        } catch {
          t.fail(`the arguments of a function_call item are not JSON: ${JSON.stringify(String(call.arguments).slice(0, 120))}`, RULE, ex);
        }
      }
    }),
    ...check('deterministic', 'reassembly', 'text deltas reassemble to the non-streamed response, with its usage (temperature 0)', { stateful: true }, async (t) => {
      const plain = withBody(longRequest(t, op), { store: false });
      const both = await wholeAndStreamed(t, op, plain, RULE);
      if (!both) return;
      const { whole, ex } = both;
      const result = analyseResponseStream(t, ex, eventPointer);
      if (result) same(t, whole, ex, result.response);
    }),
    ...check('deterministic', 'function-call', 'a function call streamed: the argument deltas add up to the non-streamed arguments', { stateful: true }, async (t) => {
      const plain = toolRequest(t);
      const whole = await t.send(plain);
      if (!expectSuccess(t, op, whole, RULE, 'the non-streamed request')) return;
      const calls = outputOf(whole.response?.json).filter((i) => i.type === 'function_call');
      if (!t.expect(calls.length > 0, 'tool_choice required gave no function_call item', `${RULE}: tool_choice required makes the model call a tool`, whole)) return;
      const ex = await sendStreamed(t, plain);
      if (!expectSuccess(t, op, ex, RULE, 'the streamed request')) return;
      const result = analyseResponseStream(t, ex, eventPointer);
      if (result) same(t, whole, ex, result.response);
    }),
  ];
}
