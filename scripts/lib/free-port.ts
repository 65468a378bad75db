import { createServer } from 'node:net';

/**
 * A TCP port that is free right now on `host`, for servers that cannot listen on port 0 themselves
 * (Prism reads `--port 0` as "no port"). Another process may still take it before the caller does, so
 * callers that pick a port this way retry on EADDRINUSE.
 *
 * @example
 *   const port = await freePort('127.0.0.1'); // e.g. 41873
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}

/**
 * Whether `port` on `host` can be listened on right now: Prism only finds out after seconds of loading the
 * contract, so a taken port is reported before it starts.
 *
 * @example
 *   if (!(await portIsFree('127.0.0.1', 4010))) console.error('Port 4010 is taken.');
 */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
