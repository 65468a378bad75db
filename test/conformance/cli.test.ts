/** The command line's exit statuses for the cases that need no server: usage errors and an unreachable server. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/cli.ts';
import { freePort } from '../../scripts/lib/free-port.ts';

function capture() {
  let text = '';
  const stream = new Writable({ write: (chunk, _enc, done) => { text += chunk.toString(); done(); } });
  return { stream: stream, text: () => text };
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
    expect(err.text()).toMatch(/^gateway-conformance: --profile must be core, full or mock, not 'strict'/);
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
