/**
 * The answers captured from the reference server (`capture.ts`), as the servers that replay them read them:
 * bare node:http (`bare-entry.ts`) and Fastify alone (`fastify-entry.ts`). Node's own modules only, so that
 * what a replaying server holds in memory is its answers.
 */
import { readFileSync } from 'node:fs';

/** The servers that replay a captured answer instead of making it, and their entries. */
export const replayEntries = { bare: 'scripts/bench/bare-entry.ts', fastify: 'scripts/bench/fastify-entry.ts' } as const;
export type ReplayServer = keyof typeof replayEntries;

/** One answer as `captureReplies` writes it, under its `"METHOD /path"`. */
export interface CapturedReply {
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

/** A captured answer as a replaying server sends it. */
export interface Replay {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The answers `captureReplies` wrote to `file`, each with its method and path.
 *
 * @example
 *   for (const reply of readReplies(process.argv[2]!)) console.log(reply.method, reply.path, reply.body.length);
 */
export function readReplies(file: string): Replay[] {
  const replies = JSON.parse(readFileSync(file, 'utf8')) as Record<string, CapturedReply>;
  return Object.entries(replies).map(([route, r]) => {
    const [method, path] = route.split(' ') as [string, string];
    return { method, path, status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') };
  });
}
