/**
 * A model whose answers come from an upstream, behind the same `TextService` as the engine: the request
 * translated into the upstream's protocol (protocols/), sent over its pooled connections (http.ts), and the
 * answer or its stream translated back step by step. Usage the upstream does not report is counted by the
 * gateway's tokenizer, so that billing always has a figure; stop sequences are the gateway's to keep
 * (stop-sequences.ts); failures become the gateway's own errors (gateway-errors.ts). The prompt endpoint is
 * a chat of one user turn.
 */
import type { TextEngine, TextService } from '../context.ts';
import type { AnswerEvent, AnswerStream } from '../domain/answer-events.ts';
import type { ChatAnswer, ChatRequest } from '../domain/chat.ts';
import type { UpstreamEntry } from '../catalogue/catalogue-file.ts';
import type { Abandonment } from '../domain/abandonment.ts';
import type { UpstreamConnection } from './connections.ts';
import { asGatewayError, type UpstreamIdentity } from './gateway-errors.ts';
import { textProtocols, UNCOUNTED, type TextProtocolName } from './protocols/index.ts';
import { stopInAnswer, stopInStream } from './stop-sequences.ts';

/**
 * @example
 *   const service = upstreamTextService('gpt-4o', entry, upstreams.connect(entry), engines.text);
 */
export function upstreamTextService(model: string, entry: UpstreamEntry, { client, key }: UpstreamConnection, engine: TextEngine): TextService {
  const protocol = textProtocols[entry.protocol as TextProtocolName];
  const identity: UpstreamIdentity = { model, origin: client.origin, key };

  /** The upstream's figures, and the gateway's count where it gave none (`prompt`: the request's, when already made). */
  async function counted<T extends { promptTokens: number; completionTokens: number }>(
    usage: T,
    request: ChatRequest,
    answerText: () => string,
    prompt?: Promise<number>,
  ): Promise<T> {
    const [promptTokens, completionTokens] = await Promise.all([
      usage.promptTokens === UNCOUNTED ? (prompt ?? engine.countChatTokens(request)) : usage.promptTokens,
      usage.completionTokens === UNCOUNTED ? engine.countTokens(answerText()) : usage.completionTokens,
    ]);
    // A copy with the counts set (not `{ ...usage, more }`: see test/server/hidden-classes.test.ts).
    return Object.assign({}, usage, { promptTokens, completionTokens });
  }

  async function answerChat(request: ChatRequest, abandoned?: Abandonment): Promise<ChatAnswer> {
    try {
      const { path, body } = protocol.toUpstream(request, entry.model, false);
      const answer = stopInAnswer(protocol.fromUpstream(await client.json(path, body, abandoned?.signal)), request.stopSequences);
      return await counted(answer, request, () => textOf(answer.content, answer.toolCalls.map((c) => c.arguments)));
    } catch (error) {
      throw asGatewayError(error, identity);
    }
  }

  /** The upstream's steps as they arrive, its failures the gateway's, its end with every count. */
  async function* translated(steps: AsyncIterable<AnswerEvent>, request: ChatRequest, prompt: Promise<number> | undefined): AsyncGenerator<AnswerEvent> {
    const pieces: string[] = [];
    try {
      for await (const step of steps) {
        if (step.type === 'text' || step.type === 'tool-arguments') pieces.push(step.text);
        yield step.type === 'end' ? await counted(step, request, () => pieces.join(''), prompt) : step;
      }
    } catch (error) {
      throw asGatewayError(error, identity);
    }
  }

  return {
    answerChat,
    async streamChat(request, abandoned, wants): Promise<AnswerStream> {
      // The upstream tells its prompt tokens at the end, if at all: when they are wanted first, the gateway
      // counts them while the upstream begins (what /v1/messages/count_tokens answers), and only once.
      const prompt = wants?.promptTokens ? engine.countChatTokens(request) : undefined;
      prompt?.catch(() => undefined);
      try {
        const { path, body } = protocol.toUpstream(request, entry.model, true);
        const events = await client.stream(path, body, abandoned?.signal);
        const steps = translated(stopInStream(protocol.eventsFrom(events), request.stopSequences), request, prompt);
        // The client's stream begins with the answer's first step, read here: a failure before it (silence
        // past idle_ms, a cut, an error event right after the upstream's head) is still the gateway's error
        // status (504, 502), as D31 says; only a stream that has begun ends with its protocol's error event.
        // Reading at once also keeps the events that arrive while the prompt tokens are counted: an upstream
        // body cut before it is read loses them.
        const first = await steps.next();
        return prompt ? { promptTokens: await prompt, events: resumed(first, steps) } : { events: resumed(first, steps) };
      } catch (error) {
        throw asGatewayError(error, identity);
      }
    },
    countChatTokens: (request) => engine.countChatTokens(request),
    async completePrompt(request, abandoned) {
      const chat: ChatRequest = {
        model: request.model,
        messages: [{ role: 'user', content: request.prompt }],
        temperature: request.temperature,
        seed: request.seed,
        maxTokens: request.maxTokens ?? null,
      };
      const answer = await answerChat(chat, abandoned);
      return {
        text: answer.content ?? '',
        finishReason: answer.finishReason === 'length' ? 'length' : 'stop',
        promptTokens: answer.promptTokens,
        completionTokens: answer.completionTokens,
      };
    },
  };
}

/** The steps of a stream whose first was already read: that one, then the rest as they come. */
async function* resumed(first: IteratorResult<AnswerEvent>, rest: AsyncGenerator<AnswerEvent>): AsyncGenerator<AnswerEvent> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

/** The text an answer's completion tokens are counted on: its content and its calls' arguments. */
function textOf(content: string | null, calls: string[]): string {
  return [content ?? '', ...calls].join('');
}
