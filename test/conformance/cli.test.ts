/** The command line's exit statuses and reports: usage errors, a server that is not there or not the gateway, runs that check nothing. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/cli.ts';
import { freePort } from '../../scripts/lib/free-port.ts';
import { useServer } from '../helpers/server.ts';

function capture() {
  let text = '';
  const stream = new Writable({ write: (chunk, _enc, done) => { text += chunk.toString(); done(); } });
  return { stream: stream, text: () => text };
}

/** A usage error as printed: the reason on the first line, a pointer to --help on the second, and nothing else. */
function expectUsageError(text: string, reason: RegExp): void {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toMatch(reason);
  expect(lines.slice(1)).toEqual(["Run 'gateway-conformance --help' for the options."]);
}

describe('gateway-conformance', () => {
  it('prints its usage with --help and exits 0', async () => {
    const out = capture();
    expect(await main(['--help'], out.stream, capture().stream)).toBe(0);
    expect(out.text()).toMatch(/^Usage: gateway-conformance --base-url URL/);
  });

  it('exits 2 on a usage error, saying what is wrong', async () => {
    const err = capture();
    expect(await main(['--base-url', 'http://127.0.0.1:1', '--profile', 'strict'], capture().stream, err.stream)).toBe(2);
    expectUsageError(err.text(), /^gateway-conformance: --profile must be core, full or mock, not 'strict'$/);
  });

  it('exits 2 when nothing listens at --base-url, before running any check', async () => {
    const port = await freePort();
    const out = capture();
    const err = capture();
    expect(await main(['--base-url', `http://127.0.0.1:${port}`], out.stream, err.stream)).toBe(2);
    expect(err.text()).toMatch(new RegExp(`cannot reach http://127.0.0.1:${port}: .*ECONNREFUSED`));
    expect(out.text()).toBe('');
  });
});

describe('gateway-conformance, honest about what it checked', () => {
  const server = useServer();

  it('prints --version and --list without a server', async () => {
    const out = capture();
    expect(await main(['--version'], out.stream, capture().stream)).toBe(0);
    expect(out.text()).toMatch(/^gateway-conformance \d+\.\d+\.\d+; contracts: gateway "AI Model Gateway API" \d[^;]*; openai "OpenAI protocol[^"]*" \d[^;]*; anthropic "Anthropic protocol[^"]*" \d/);
    const list = capture();
    expect(await main(['--list'], list.stream, capture().stream)).toBe(0);
    expect(list.text()).toMatch(/^listModels\/auth\/no-key\s+core,full,mock\s+no key/m);
    expect(list.text()).toMatch(/^createImage\/quota\/starter\s+core,full\s+a starter key gets exactly/m);
    expect(list.text()).toMatch(/\n\d+ checks \(as with a key of every tier/);
    const vendors = capture();
    expect(await main(['--list', '--contract', 'openai,anthropic'], vendors.stream, capture().stream)).toBe(0);
    expect(vendors.text()).toMatch(/^openai:createChatCompletion\/streaming\/tool-calls\s+core,full\s/m);
    expect(vendors.text()).toMatch(/^anthropic:createMessage\/auth\/anthropic-version\s+core,full,mock\s/m);
    expect(vendors.text()).not.toMatch(/^(gateway|createImage)/m);
  });

  it('exits 2 with what to pass when --base-url ends in /v1: that paragraph first, then a pointer to --help, not the whole usage', async () => {
    const err = capture();
    expect(await main(['--base-url', `${server.baseUrl}/v1`], capture().stream, err.stream)).toBe(2);
    expectUsageError(err.text(), /^gateway-conformance: --base-url '[^']+\/v1' ends in \/v1, but the suite adds \/v1\/… to it itself/);
    expect(err.text()).toContain(`Pass the server's root: --base-url ${server.baseUrl}`);
    expect(err.text()).not.toContain('Usage:');
  });

  it('exits 2 with one paragraph when what answers is not the gateway', async () => {
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Files</h1>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const out = capture();
      const err = capture();
      const port = (other.address() as AddressInfo).port;
      expect(await main(['--base-url', `http://127.0.0.1:${port}`, '--quiet'], out.stream, err.stream)).toBe(2);
      expect(err.text()).toMatch(/does not look like the gateway: GET \/v1\/models answered 200 text\/html without a "models" array/);
      expect(out.text()).toBe('');
    } finally {
      other.close();
    }
  });

  it('refuses --only and --skip names that select nothing: the reason first, then a pointer to --help, not the whole usage', async () => {
    const err = capture();
    expect(await main(['--base-url', server.baseUrl, '--skip', 'createImage/errors/no-such-check'], capture().stream, err.stream)).toBe(2);
    expectUsageError(err.text(), /^gateway-conformance: --skip 'createImage\/errors\/no-such-check': no check has this id, operationId or family/);
    expect(err.text()).not.toContain('Usage:');
  });

  it('exits 2 when no check ran, and says what to pass', async () => {
    const out = capture();
    const err = capture();
    expect(await main(['--base-url', server.baseUrl, '--key', 'starter=sk-demo-starter', '--only', 'quota', '--quiet'], out.stream, err.stream)).toBe(2);
    expect(out.text()).toMatch(/1 check: spends a key's daily quota: run with --destructive → pass --destructive/);
    expect(err.text()).toMatch(/no check ran/);
  });

  it('writes reports into folders it creates, with check ids, and fails skips under --strict', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-conformance-reports-'));
    try {
      const out = capture();
      const args = ['--base-url', server.baseUrl, '--only', 'listModels', '--quiet', '--junit', join(dir, 'a/b/junit.xml'), '--json', join(dir, 'c/report.json')];
      expect(await main(args, out.stream, capture().stream)).toBe(0);
      expect(out.text()).toMatch(/✓ .* \[listModels\/responses\/[^\]]+\]/);
      expect(await readFile(join(dir, 'a/b/junit.xml'), 'utf8')).toMatch(/<testcase classname="conformance.listModels" name="listModels\/responses\//);
      expect(JSON.parse(await readFile(join(dir, 'c/report.json'), 'utf8')).summary.passed).toBeGreaterThan(0);
      // Without a key, the checks of a protected operation skip (whether the server checks keys is not known):
      // --strict turns that into a failure.
      const keyless = capture();
      expect(await main(['--base-url', server.baseUrl, '--only', 'listModels,createChatCompletion/auth', '--quiet'], keyless.stream, capture().stream)).toBe(0);
      expect(keyless.text()).toMatch(/checks: no key given: whether the server checks keys is not known \(--key KEY\) → pass --key KEY/);
      expect(await main(['--base-url', server.baseUrl, '--only', 'listModels,createChatCompletion/auth', '--quiet', '--strict'], capture().stream, capture().stream)).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
