// Claude Code, the real client (`@anthropic-ai/claude-code`, pinned), pointed at the reference server as its
// documentation says: ANTHROPIC_BASE_URL is the gateway's root, the key in ANTHROPIC_AUTH_TOKEN (sent as
// Bearer) or ANTHROPIC_API_KEY (sent as x-api-key). It runs headless (`claude -p`) with a home folder of
// its own, no traffic but to the gateway, and the tools that run commands or write files disallowed.
import { describe, expect, it } from 'vitest';
import { runClaude as run, useRecordedServer, type HeadlessRun } from '../helpers/headless-client.ts';

const gateway = useRecordedServer();
const seen = () => gateway.seen.map((r) => r.request);

function runClaude(prompt: string, options: { model?: string; env: Record<string, string> }): Promise<HeadlessRun> {
  return run(gateway.baseUrl, prompt, options);
}

describe('Claude Code in print mode', () => {
  it('answers through /v1/messages?beta=true with the key as ANTHROPIC_AUTH_TOKEN', async () => {
    gateway.seen.length = 0;
    const run = await runClaude('What is the capital of France?', { env: { ANTHROPIC_AUTH_TOKEN: 'sk-demo-pro' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    expect(seen()).toContain('POST /v1/messages?beta=true');
  });

  it('answers with the key as ANTHROPIC_API_KEY (x-api-key), the model given by --model', async () => {
    const run = await runClaude('How do I reset my password?', { model: 'claude-haiku-4-5', env: { ANTHROPIC_API_KEY: 'sk-demo-economy' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/reset your password/);
  });

  it('stops at once on a wrong key, with the gateway message (no retries: x-should-retry false)', async () => {
    gateway.seen.length = 0;
    const run = await runClaude('Hello', { env: { ANTHROPIC_API_KEY: 'sk-not-a-key' } });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/401 Invalid API Key\./);
    expect(seen().filter((r) => r.startsWith('POST /v1/messages'))).toHaveLength(1);
  });

  it("says the gateway's reason for a model it does not have, and for a model above the key's tier", async () => {
    const unknown = await runClaude('Hello', { model: 'claude-opus-9', env: { ANTHROPIC_API_KEY: 'sk-demo-ultimate' } });
    expect(unknown.code).not.toBe(0);
    // The 404 not_found_error is what makes Claude Code ask for another model (it then sends `system` turns
    // in `messages`, which the gateway accepts).
    expect(unknown.stdout + unknown.stderr).toMatch(/issue with the selected model \(claude-opus-9\).*--model/s);
    const above = await runClaude('Hello', { model: 'claude-opus-4-1', env: { ANTHROPIC_API_KEY: 'sk-demo-starter' } });
    expect(above.code).not.toBe(0);
    expect(above.stdout + above.stderr).toMatch(/403 Model 'claude-opus-4-1' requires the 'ultimate' tier/);
  });
});
