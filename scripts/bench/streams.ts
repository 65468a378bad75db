/**
 * Streamed chat completions: the time to the first event, and many streams open at once. Every stream is
 * checked whole: status 200, `[DONE]` last, and deltas that add up to the non-streamed answer to the same
 * request (answers are deterministic); streams of the same request must also carry the same events.
 */
import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';
import { readEvents } from '../../src/client/sse.ts';
import type { Measured } from './http.ts';
import { sampleRss } from './machine.ts';
import { startEntry, type SpawnOptions } from './processes.ts';
import { QUESTION, SYSTEM } from './requests.ts';
import type { BenchSettings } from './settings.ts';
import { percentile } from './stats.ts';

export interface StreamTarget {
  baseUrl: string;
  headers: Record<string, string>;
  /** The chat request, without `stream`; it fixes `seed`, so that every answer is the same. */
  body: Record<string, unknown>;
}

export interface StreamsResult {
  ttfe: { count: number; failures: number; problems: string[]; p50Ms: number; p99Ms: number; rssPeakMb: number };
  /** One entry per number of streams opened at once (`settings.streams.concurrent`). */
  concurrent: Array<ConcurrentStreamsResult & { rssPeakMb: number }>;
}

/** A streamed chat completion with a fixed seed and length, so that every stream carries the same events. */
export function streamRequest(server: { baseUrl: string; ready: Record<string, unknown> }, maxTokens: number): StreamTarget {
  const messages = [{ role: 'system', content: SYSTEM }, { role: 'user', content: QUESTION }];
  return { baseUrl: server.baseUrl, headers: { 'x-api-key': server.ready.loadKey as string, 'content-type': 'application/json' }, body: { model: 'gpt-4o-mini', messages, seed: 7, max_tokens: maxTokens } };
}

/**
 * The time to first event on the reference as it runs by default (no delay between tokens); then, on a server
 * of its own whose tokens come slowly enough for them to overlap, each number of streams at once in turn. Also
 * the peak RSS of that server.
 */
export async function measureStreams(reference: Measured, settings: BenchSettings['streams'], launch: SpawnOptions, log: (line: string) => void): Promise<StreamsResult & { peakMb: number }> {
  log('streams: time to first event');
  const phase = reference.rss.phase();
  const ttfe = await timeToFirstEvent(streamRequest(reference.server, settings.maxTokens), settings.sequential);
  const ttfeResult = { count: settings.sequential, ...ttfe, rssPeakMb: phase.end() };
  const slow = await startEntry('streams', 'scripts/bench/reference-entry.ts', ['--token-delay-ms', String(settings.tokenDelayMs)], launch);
  const rss = sampleRss(slow.pid);
  try {
    const target = streamRequest(slow, settings.maxTokens);
    const expected = await expectStreams(target);
    const concurrent: StreamsResult['concurrent'] = [];
    for (const count of settings.concurrent) {
      log(`streams: ${count} at once (${settings.tokenDelayMs} ms between tokens)`);
      const at = rss.phase();
      concurrent.push({ ...(await concurrentStreams(target, expected, count)), rssPeakMb: at.end() });
    }
    return { ttfe: ttfeResult, concurrent, peakMb: rss.peak };
  } finally {
    rss.stop();
    await slow.close();
  }
}

type StreamExpectation = { events: number; content: string };

interface StreamOutcome {
  error?: string;
  ttfeMs: number;
  events: number;
  content: string;
  done: boolean;
}

export interface ConcurrentStreamsResult {
  streams: number;
  /** Streams whole and as expected; errors (connection, status, broken events); lost (short of an event or of the text). */
  complete: number;
  errors: number;
  lost: number;
  /** Most streams open at the same moment, seen from the client. */
  peakOpen: number;
  eventsPerStream: number;
  ttfeP50Ms: number;
  ttfeP99Ms: number;
  durationMs: number;
  /** The first few problems, to say what went wrong. */
  problems: string[];
}

/** What every stream of `target` must carry, from its non-streamed answer and one stream read alone. */
async function expectStreams(target: StreamTarget): Promise<StreamExpectation> {
  const content = await answerOf(target);
  const agent = new Agent({ keepAlive: false });
  const first = await openStream(target, agent, () => {});
  agent.destroy();
  if (first.error) throw new Error(`a single stream failed: ${first.error}`);
  if (!first.done || first.content !== content) {
    throw new Error(`a single stream does not match the non-streamed answer (${first.events} events, done: ${first.done})`);
  }
  return { events: first.events, content };
}

/** Time to first event, in ms, of `count` streams opened one after the other, each a different request. */
export async function timeToFirstEvent(target: StreamTarget, count: number): Promise<{ p50Ms: number; p99Ms: number; failures: number; problems: string[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const problems: string[] = [];
  const run = Date.now().toString(36);
  for (let i = 0; i < count; i++) {
    const one = { ...target, body: { ...target.body, messages: ticket(target.body.messages, `${run}-${i}`) } };
    const outcome = await openStream(one, agent, () => {});
    const expected = await answerOf(one);
    const problem = outcome.error ?? (!outcome.done ? 'no [DONE] at the end' : outcome.content !== expected ? 'the deltas do not add up to the non-streamed answer' : undefined);
    if (problem) problems.push(problem);
    else times.push(outcome.ttfeMs);
  }
  agent.destroy();
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), failures: problems.length, problems: problems.slice(0, 5) };
}

/** The messages with the last user message about a ticket of its own. */
function ticket(messages: unknown, id: string): unknown[] {
  const list = [...(messages as Array<{ role: string; content: string }>)];
  const last = list.at(-1)!;
  list[list.length - 1] = { ...last, content: `Ticket ${id}: ${last.content}` };
  return list;
}

/** The text of the non-streamed answer to the same request. */
async function answerOf(target: StreamTarget): Promise<string> {
  const res = await fetch(`${target.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: target.headers,
    body: JSON.stringify(target.body),
  });
  if (!res.ok) throw new Error(`chat completion answered ${res.status}: ${await res.text()}`);
  const whole = (await res.json()) as { choices: Array<{ message: { content: string | null } }> };
  return whole.choices[0]?.message.content ?? '';
}

/** Opens `count` streams at once, each on its own connection, and checks every one of them. */
async function concurrentStreams(target: StreamTarget, expected: StreamExpectation, count: number): Promise<ConcurrentStreamsResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  let open = 0;
  let peakOpen = 0;
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, () =>
      openStream(target, agent, (opened) => {
        open += opened ? 1 : -1;
        peakOpen = Math.max(peakOpen, open);
      }),
    ),
  );
  const durationMs = performance.now() - started;
  agent.destroy();
  const problems: string[] = [];
  let errors = 0;
  let lost = 0;
  for (const outcome of outcomes) {
    const problem = problemOf(outcome, expected);
    if (!problem) continue;
    if (outcome.error) errors++;
    else lost++;
    if (problems.length < 5) problems.push(problem);
  }
  const ttfe = outcomes.filter((o) => !o.error).map((o) => o.ttfeMs);
  return {
    streams: count,
    complete: count - errors - lost,
    errors,
    lost,
    peakOpen,
    eventsPerStream: expected.events,
    ttfeP50Ms: percentile(ttfe, 50),
    ttfeP99Ms: percentile(ttfe, 99),
    durationMs,
    problems,
  };
}

function problemOf(outcome: StreamOutcome, expected: StreamExpectation): string | undefined {
  if (outcome.error) return outcome.error;
  if (!outcome.done) return `no [DONE] after ${outcome.events} events`;
  if (outcome.events !== expected.events) return `${outcome.events} events instead of ${expected.events}`;
  if (outcome.content !== expected.content) return 'the deltas do not add up to the non-streamed answer';
  return undefined;
}

/** One stream, read to its end; `onOpen(true)` when its answer starts and `onOpen(false)` when it ends. */
function openStream(target: StreamTarget, agent: Agent, onOpen: (opened: boolean) => void): Promise<StreamOutcome> {
  const payload = JSON.stringify({ ...target.body, stream: true });
  const url = new URL('/v1/chat/completions', target.baseUrl);
  return new Promise((resolve) => {
    const outcome: StreamOutcome = { ttfeMs: 0, events: 0, content: '', done: false };
    const started = performance.now();
    let opened = false;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      if (opened) onOpen(false);
      if (error) outcome.error ??= error;
      resolve(outcome);
    };
    const onEvent = (event: { data: string }) => {
      if (outcome.events === 0) outcome.ttfeMs = performance.now() - started;
      outcome.events++;
      if (outcome.done) outcome.error ??= 'an event after [DONE]';
      if (event.data === '[DONE]') {
        outcome.done = true;
        return;
      }
      try {
        const chunk = JSON.parse(event.data) as { choices: Array<{ delta?: { content?: string | null } }> };
        for (const choice of chunk.choices) if (typeof choice.delta?.content === 'string') outcome.content += choice.delta.content;
      } catch {
        outcome.error ??= `an event that is not JSON: ${event.data.slice(0, 80)}`;
      }
    };
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...target.headers, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          finish(`status ${res.statusCode}`);
          return;
        }
        opened = true;
        onOpen(true);
        (async () => {
          for await (const event of readEvents(Readable.toWeb(res) as ReadableStream<Uint8Array>)) onEvent(event);
        })().then(
          () => finish(res.complete ? undefined : 'the connection closed before the answer ended'),
          (error: Error) => finish(error.message),
        );
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', (error) => finish(error.message));
    req.end(payload);
  });
}
