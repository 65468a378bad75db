/**
 * The servers that replay the reference server's answers (`replay-entry.ts`): the answers captured, and the
 * servers started on them.
 */
import { writeFileSync } from 'node:fs';
import type { LoadSpec } from './load.ts';
import { startEntry, type ServerProcess } from './processes.ts';
import type { CapturedReply } from './replay-entry.ts';

export type ReplayServer = 'bare' | 'fastify';

/** Headers Node's HTTP server writes itself; replaying them would duplicate or contradict them. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Sends each request once and writes `{"METHOD /path": reply}` to `file`, for the replaying servers. */
export async function captureReplies(baseUrl: string, specs: readonly LoadSpec[], file: string): Promise<Record<string, CapturedReply>> {
  const replies: Record<string, CapturedReply> = {};
  for (const spec of specs) {
    const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
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

export function startReplay(server: ReplayServer, repliesFile: string): Promise<ServerProcess> {
  return startEntry(server, 'scripts/bench/replay-entry.ts', [server, repliesFile]);
}
