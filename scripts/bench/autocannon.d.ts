/** The part of autocannon's API (a CommonJS package without types) that the benchmark uses. */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
  }

  export interface Options extends Omit<Request, 'path' | 'setupRequest'> {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    requests?: Request[];
    idReplacement?: boolean;
  }

  export default function autocannon(options: Options): EventEmitter & PromiseLike<{ errors: number; non2xx: number }>;
}
