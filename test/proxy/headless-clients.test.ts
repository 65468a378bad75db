/**
 * Claude Code and Codex CLI, the real clients, through the validating proxy to the reference server: no
 * exchange breaks a rule of the contracts (the gateway's, Anthropic's, OpenAI's), and they send no field the
 * contracts do not describe (decision D33: what no description names is refused).
 */
import { describe, expect, it } from 'vitest';
import { runClaude, runCodex } from '../helpers/headless-client.ts';
import { useProxied, violationLines } from './proxied.ts';

const proxied = useProxied({ contracts: ['gateway', 'openai', 'anthropic'] });

describe('real clients through the proxy', () => {
  it('Claude Code (claude -p): its probe and its messages, no violation', async () => {
    proxied.judged.length = 0;
    const run = await runClaude(proxied.baseUrl, 'What is the capital of France?', { env: { ANTHROPIC_AUTH_TOKEN: 'sk-demo-pro' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    await proxied.proxy.settled();
    expect(violationLines(proxied.judged)).toEqual([]);
    const messages = proxied.judged.flat().filter((j) => j.operationId === 'createMessage');
    expect(messages.length).toBeGreaterThan(0);
    // Every field it sends (thinking, context_management, tools' defer_loading…) is described.
    expect(proxied.proxy.ledger.summary().undeclared.filter((f) => f.operationId.endsWith('Message') || f.operationId.endsWith('MessageTokens'))).toEqual([]);
  }, 90_000);

  it('Codex CLI (codex exec): its streamed Responses, no violation', async () => {
    proxied.judged.length = 0;
    const run = await runCodex(proxied.baseUrl, 'What is the capital of France?', { key: 'sk-demo-starter' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    await proxied.proxy.settled();
    expect(violationLines(proxied.judged)).toEqual([]);
    expect(proxied.judged.flat().some((j) => j.contract === 'openai' && j.operationId === 'createResponse')).toBe(true);
    // Every field it sends (reasoning, include, client_metadata, input items' ids…) is described.
    expect(proxied.proxy.ledger.summary().undeclared.filter((f) => f.operationId === 'createResponse')).toEqual([]);
  }, 90_000);
});
