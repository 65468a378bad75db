/**
 * Records what the reference server answers to each benchmarked request (status, headers, body bytes), so
 * that the servers that replay them (bare `node:http`, Fastify alone) send exactly the same bytes.
 */
import { writeFileSync } from 'node:fs';
import type { CapturedReply } from './replies.ts';
import type { LoadSpec } from './load.ts';
import { withId } from './requests.ts';

/** Headers Node's HTTP server writes itself; replaying them would duplicate or contradict them. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * Sends each request once and writes `{"METHOD /path": reply}` to `file` for `bare-entry.ts` and `fastify-entry.ts`.
 *
 * @example
 *   await captureReplies(ref.baseUrl, [models, chat], 'artifacts/bench-replies.json');
 */
export async function captureReplies(baseUrl: string, specs: readonly LoadSpec[], file: string): Promise<Record<string, CapturedReply>> {
  const replies: Record<string, CapturedReply> = {};
  for (const spec of specs) {
    const body = spec.body === undefined ? undefined : withId(spec.body, 'capture');
    const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body });
    const answer = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${spec.method} ${spec.path} answered ${res.status}: ${answer.toString().slice(0, 300)}`);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!OWN_HEADERS.has(name)) headers[name] = value;
    });
    replies[`${spec.method} ${spec.path}`] = { status: res.status, headers, body: answer.toString('base64') };
  }
  writeFileSync(file, JSON.stringify(replies));
  return replies;
}
