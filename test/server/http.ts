/** Small request helpers for the server tests: JSON in, status + headers + parsed body out. */
import { connect, type Socket } from 'node:net';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; bearer?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
  }
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Tell me about lighthouses.' }],
  ...extra,
});

/** Opens a raw connection to a server, for what a client library would not send. */
export function openSocket(baseUrl: string): Promise<Socket> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on the socket until it closes the connection. */
export function untilClosed(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/** Status, lower-cased head and parsed JSON body of a raw HTTP/1.1 answer. */
export function parseRaw(raw: string): { status: number; headers: string; body: unknown } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
}
