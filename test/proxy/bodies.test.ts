/**
 * Bodies of any size pass through the proxy whole; it keeps 8 MiB of each for its judge, and judges a longer
 * one without it (counted as judged in part), never as a violation.
 */
import { describe, expect, it } from 'vitest';
import { useProxied, violationLines } from './proxied.ts';

const proxied = useProxied({ contracts: ['gateway'] });

describe('a body longer than the proxy keeps', () => {
  it('passes whole, and is judged without it', async () => {
    const text = 'x'.repeat(9 * 1024 * 1024);
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
    const res = await fetch(`${proxied.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' }, body });
    // The server saw it all: the whole text is over its limit of 4,194,304 characters (D22), and it says so.
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/4,?194,?304/);
    await proxied.proxy.settled();
    expect(violationLines(proxied.judged)).toEqual([]);
    expect(proxied.proxy.ledger.summary()).toMatchObject({ exchanges: 1, violating: 0, partial: 1 });
  });
});
