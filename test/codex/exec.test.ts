// Codex CLI, the real client (`@openai/codex`, pinned), which speaks only the Responses API: a provider with
// `wire_api = "responses"` pointed at the gateway's `{base_url}/v1`, the key in an environment variable, as
// the README configures it. It runs headless (`codex exec`) in a read-only sandbox, with a CODEX_HOME and a
// working folder of its own, and no traffic but to the gateway.
import { describe, expect, it } from 'vitest';
import { runCodex as run, useRecordedServer, type HeadlessRun } from '../helpers/headless-client.ts';

const gateway = useRecordedServer();

function runCodex(prompt: string, options: { model?: string; key: string }): Promise<HeadlessRun> {
  return run(gateway.baseUrl, prompt, options);
}

describe('Codex CLI exec', () => {
  it('answers through POST /v1/responses, streamed, with the tools and fields Codex sends', async () => {
    gateway.seen.length = 0;
    const run = await runCodex('What is the capital of France?', { key: 'sk-demo-starter' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    const sent = gateway.seen.find((r) => r.request === 'POST /v1/responses')!;
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, store: false });
    // What it sends that the gateway does not act on is accepted, never a 400.
    const types = new Set((sent.body.tools as Array<{ type: string }>).map((t) => t.type));
    expect(types.has('function')).toBe(true);
    expect([...types].some((t) => t !== 'function')).toBe(true);
    expect(sent.body).toHaveProperty('reasoning');
    expect(sent.body).toHaveProperty('include');
  });

  it('reports the gateway message for a wrong key and for a model the gateway does not have', async () => {
    const wrongKey = await runCodex('Hello', { key: 'sk-not-a-key' });
    expect(wrongKey.stdout + wrongKey.stderr).toMatch(/401.*Invalid API Key\./);
    expect(wrongKey.code).not.toBe(0);
    const unknown = await runCodex('Hello', { key: 'sk-demo-starter', model: 'gpt-9' });
    expect(unknown.stdout + unknown.stderr).toMatch(/Model 'gpt-9' does not exist/);
    expect(unknown.code).not.toBe(0);
  });
});
