/**
 * Where a server's CPU time goes, from the V8 CPU profiles `node --cpu-prof` writes (one per thread: the main
 * thread and each worker): the samples taken while a load ran, each counted to the part of the server its
 * innermost frame belongs to, and the shares turned into microseconds per request with the CPU time the
 * process really spent (a sample's time is wall time: a thread waiting for a core still collects them).
 */
import { readFileSync } from 'node:fs';

/** The parts a request's CPU time is counted to, by the code its samples were taken in. */
export const profileParts = [
  'text engine',
  'handlers and answer shapes',
  'event streams',
  'worker hand-off',
  'server: auth, body, errors, headers',
  'validation (ajv)',
  'Fastify',
  'node:http, streams, events',
  'socket writes (system calls)',
  'garbage collection',
  'V8 and other native',
  'other JavaScript',
] as const;
export type ProfilePart = (typeof profileParts)[number];

export interface ProfileBreakdown {
  /** Requests answered while the samples were taken. */
  requests: number;
  /** The CPU time per request the breakdown adds up to (measured from /proc), or null: the samples' own time. */
  cpuUsPerRequest: number | null;
  /** µs per request of each part, over all threads. */
  parts: Record<ProfilePart, number>;
  /** µs per request on the main thread and on the workers. */
  threads: { main: number; workers: number };
  /** The functions that took the most time of their own (µs per request): what to read first. */
  top: Array<{ fn: string; us: number }>;
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const NATIVE_WRITES = new Set(['writev', 'writeUtf8String', 'writeLatin1String', 'writeBuffer', 'writeString', 'writeAsciiString', 'writeUcs2String']);

/** The part of the server a frame belongs to. */
export function partOf(frame: CallFrame): ProfilePart | 'idle' {
  const { url, functionName: fn } = frame;
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'garbage collection';
  if (url === '') {
    if (NATIVE_WRITES.has(fn)) return 'socket writes (system calls)';
    if (fn === 'postMessage') return 'worker hand-off';
    // ajv's compiled validators are made with `new Function`: they have no file.
    if (/^validate\d*$/.test(fn)) return 'validation (ajv)';
    return 'V8 and other native';
  }
  // The engine and the event writer have lived in other folders (a baseline may be an older commit).
  if (/\/src\/server\/(domain\/)?engine\/|\/src\/lib\//.test(url)) return 'text engine';
  if (/\/src\/server\/workers\/|^node:internal\/worker|^node:internal\/per_context\/messageport/.test(url)) return 'worker hand-off';
  if (/\/src\/server\/(http\/)?sse\./.test(url)) return 'event streams';
  if (/\/src\/server\/(routes|anthropic|openai-responses)\/|\/src\/server\/http\/responses\./.test(url)) return 'handlers and answer shapes';
  if (/\/src\/(server|contract)\//.test(url)) return 'server: auth, body, errors, headers';
  if (/\/node_modules\/(ajv|ajv-formats)\//.test(url)) return 'validation (ajv)';
  if (/\/node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-json-stringify|pino[^/]*|abstract-logging|toad-cache|rfdc|fast-querystring|process-warning|secure-json-parse)\//.test(url)) return 'Fastify';
  if (/^node:/.test(url)) return 'node:http, streams, events';
  return 'other JavaScript';
}

/**
 * The samples of `files` (all the profiles of one process) taken between `window.fromUs` and `window.toUs`
 * (the monotonic clock, in µs, as `process.hrtime` reads it), counted per part and per request.
 *
 * @example
 *   const b = profileBreakdown(files, { fromUs, toUs }, 12_000, 95);
 *   b.parts['text engine']; // µs per request
 */
export function profileBreakdown(files: readonly string[], window: { fromUs: number; toUs: number }, requests: number, cpuUsPerRequest: number | null): ProfileBreakdown {
  const parts = Object.fromEntries(profileParts.map((p) => [p, 0])) as Record<ProfilePart, number>;
  const threads = { main: 0, workers: 0 };
  const byFunction = new Map<string, number>();
  const profiles = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  // The main thread's profile is the one whose samples include Node's HTTP parser; the others are workers.
  const isMain = profiles.map((p) => p.nodes.some((n) => n.callFrame.url === 'node:_http_server'));
  let total = 0;
  profiles.forEach((profile, index) => {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at += profile.timeDeltas[i] ?? 0;
      // A sample's delta is the time since the previous one: the time of the next sample belongs to this one's frame.
      const spent = profile.timeDeltas[i + 1] ?? 0;
      if (at < window.fromUs || at > window.toUs) continue;
      const frame = nodes.get(profile.samples[i]!)!.callFrame;
      const part = partOf(frame);
      if (part === 'idle') continue;
      parts[part] += spent;
      threads[isMain[index] ? 'main' : 'workers'] += spent;
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|src|scripts)\//, '$1/')}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + spent);
      total += spent;
    }
  });
  // Shares of the samples, as µs of the CPU time measured per request (or of the samples' own time).
  const scale = requests > 0 && total > 0 ? (cpuUsPerRequest ?? total / requests) / total : 0;
  for (const p of profileParts) parts[p] *= scale;
  return {
    requests,
    cpuUsPerRequest,
    parts,
    threads: { main: threads.main * scale, workers: threads.workers * scale },
    top: [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([fn, us]) => ({ fn, us: us * scale })),
  };
}
