/**
 * The docs pages and the descriptions as the server sends them, over real HTTP: showing the origin they are
 * asked for at (the request's protocol and `Host`) where the built page and the bundle show the
 * description's first server, the page with a Content-Security-Policy that allows it as sent; a `Host` that
 * is not a plain host gets them as built, so nothing a client sends reaches them.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDescriptions } from '../../scripts/lib/apis.ts';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import { contract, type Contract } from '../../src/contract/index.ts';
import { adminApi } from '../../src/server/dashboard/admin-api.ts';
import { useServer } from '../helpers/server.ts';

const server = useServer();

// The pages the server serves, rebuilt from the current descriptions: the test never reads stale ones.
beforeAll(() => {
  for (const api of apiDescriptions()) buildDocsPage(api.docs, `${api.generated}/openapi.json`);
});

const pages: Array<[path: string, described: Contract]> = [
  ['/docs', contract],
  ['/docs/admin', adminApi],
];

const descriptions: Array<[path: string, described: Contract]> = [
  ['/openapi.json', contract],
  ['/dashboard/api/openapi.json', adminApi],
];

function servers(described: Contract): string[] {
  return (described.spec.servers as Array<{ url: string }>).map((s) => s.url);
}

/** GET over HTTP/1.1 with the `Host` header given (fetch would send its own). */
function get(path: string, host?: string): Promise<{ status: number; policy: string; html: string }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: host === undefined ? {} : { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, policy: String(res.headers['content-security-policy']), html: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page exactly as built: asked for at the address it shows. */
async function built(path: string, described: Contract): Promise<string> {
  const page = await get(path, new URL(servers(described)[0]!).host);
  expect(page.status).toBe(200);
  return page.html;
}

/** How often `part` occurs in a page (counted, so that a failure does not print megabytes of page). */
const count = (text: string, part: string) => text.split(part).length - 1;

/** Whether the policy lets each inline script of the page run (by its SHA-256, as the browser checks). */
function allowsEveryScript(policy: string, html: string): boolean {
  const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  const bodies = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!);
  return bodies.length > 0 && bodies.every((body) => scriptSrc.includes(`'sha256-${createHash('sha256').update(body).digest('base64')}'`));
}

describe('the docs pages show the address they are served from', () => {
  it.each(pages)('%s shows its own origin, the other servers as they are, with a policy for the page as sent', async (path, described) => {
    const [address, ...others] = servers(described);
    const original = await built(path, described);
    expect(count(original, address!)).toBeGreaterThan(0);

    const page = await get(path);
    expect(page.status).toBe(200);
    expect(count(page.html, address!)).toBe(0);
    expect(count(page.html, server.baseUrl)).toBe(count(original, address!));
    for (const other of others) expect(count(page.html, other)).toBe(count(original, other));
    expect(allowsEveryScript(page.policy, page.html)).toBe(true);
    expect(allowsEveryScript(page.policy, original)).toBe(false);
  });

  it.each(['localhost', '[::1]', 'Docs.Example.com'])('uses the Host a client asked under (%s and the port)', async (name) => {
    const host = `${name}:${new URL(server.baseUrl).port}`;
    const page = await get('/docs', host);
    expect(count(page.html, `http://${host.toLowerCase()}/v1/chat/completions`)).toBeGreaterThan(0);
    expect(count(page.html, servers(contract)[0]!)).toBe(0);
    expect(count(page.html, server.baseUrl)).toBe(0);
    expect(allowsEveryScript(page.policy, page.html)).toBe(true);
  });

  it('gives each of many hosts its own page, also once more after the others', async () => {
    const port = new URL(server.baseUrl).port;
    const hosts = [...Array.from({ length: 12 }, (_, i) => `host-${i}.example:${port}`), `host-0.example:${port}`];
    for (const host of hosts) {
      const page = await get('/docs', host);
      expect(count(page.html, `http://${host}/v1/chat/completions`)).toBeGreaterThan(0);
      expect(allowsEveryScript(page.policy, page.html)).toBe(true);
    }
  });

  it.each([
    `127.0.0.1:1"><script>alert(1)</script>`,
    `<script>alert(1)</script>`,
    `evil.example/"onload="alert(1)`,
    `evil.example:80'`,
    `local host:8080`,
    `user@evil.example`,
    `evil.example:99999`,
    `-evil.example`,
    `[::1"]:8080`,
    `evil.example:8080\`\${alert(1)}`,
  ])('serves the page as built to a request with Host %j', async (host) => {
    const page = await get('/docs', host);
    expect(page.status).toBe(200);
    // Compared whole, but reported briefly: the page is megabytes.
    expect(page.html === (await built('/docs', contract)), 'the page as built').toBe(true);
    expect(allowsEveryScript(page.policy, page.html)).toBe(true);
  });
});

describe('the descriptions name the address they are served from as their first server', () => {
  /** The servers a served description lists. */
  async function servedServers(path: string, host?: string): Promise<string[]> {
    const res = await get(path, host);
    expect(res.status).toBe(200);
    return (JSON.parse(res.html) as { servers: Array<{ url: string }> }).servers.map((s) => s.url);
  }

  it.each(descriptions)('%s lists its own origin first, then the other servers as they are', async (path, described) => {
    const [address, ...others] = servers(described);
    expect(await servedServers(path)).toEqual([server.baseUrl, ...others]);
    const res = await get(path);
    expect(count(res.html, address!)).toBe(0);
    // The address is replaced wherever the description names it (its code samples too), as on the page.
    expect(count(res.html, server.baseUrl)).toBe(count(JSON.stringify(described.spec), address!));
  });

  it('uses the Host a client asked under', async () => {
    const host = `localhost:${new URL(server.baseUrl).port}`;
    expect((await servedServers('/openapi.json', host))[0]).toBe(`http://${host}`);
  });

  it.each([`127.0.0.1:1"}],"x":[{"url":"`, `evil.example/"onload="alert(1)`, 'user@evil.example'])('serves the description as built to a request with Host %j', async (host) => {
    expect(await servedServers('/openapi.json', host)).toEqual(servers(contract));
  });
});
