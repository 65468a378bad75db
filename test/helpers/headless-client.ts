/**
 * A real client program (Claude Code, Codex CLI) run headless against a test server: a home folder and a
 * working folder of its own, an environment of nothing but `PATH` and what the test gives (so no key or
 * setting of the machine leaks in), stdin closed (they read it for more input), at most 60 s. It talks to the
 * server through a proxy that records every request and changes nothing.
 *
 * @example
 *   const gateway = useRecordedServer();
 *   const run = await runHeadless(codex, ['exec', 'Hi'], (home) => ({ CODEX_HOME: home, GATEWAY_KEY: 'sk-demo-starter' }));
 *   expect(gateway.seen.map((r) => r.request)).toContain('POST /v1/responses');
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { root } from '../examples/run.ts';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from './recording-proxy.ts';
import { startServer, type TestServer } from './server.ts';

export interface HeadlessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type { RecordedRequest } from './recording-proxy.ts';

export interface RecordedServer {
  /** The proxy's address: what the client is pointed at. */
  readonly baseUrl: string;
  /** Every request the client sent, in order; a test may empty it. */
  readonly seen: RecordedRequest[];
}

/** Starts a reference server with a recording proxy in front of it for the file's tests (closed after them). */
export function useRecordedServer(): RecordedServer {
  let server: TestServer | undefined;
  let proxy: RecordingProxy | undefined;
  const seen: RecordedRequest[] = [];
  beforeAll(async () => {
    server = await startServer();
    proxy = await startRecordingProxy(server.baseUrl, seen);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });
  return {
    get baseUrl() {
      if (!proxy) throw new Error('The recorded server starts in beforeAll; use it inside a test.');
      return proxy.baseUrl;
    },
    seen,
  };
}

/**
 * Runs `command` with its own home and working folder (both removed afterwards); `env` receives the home
 * folder, to write a configuration there or name it, and gives the environment.
 */
export async function runHeadless(
  command: string,
  args: string[],
  env: (home: string) => Record<string, string> | Promise<Record<string, string>>,
): Promise<HeadlessRun> {
  const home = await mkdtemp(join(tmpdir(), 'gateway-client-home-'));
  const work = await mkdtemp(join(tmpdir(), 'gateway-client-work-'));
  try {
    const environment = { PATH: process.env.PATH ?? '', HOME: home, ...(await env(home)) };
    return await new Promise<HeadlessRun>((resolve) => {
      execFile(command, args, { cwd: work, timeout: 60_000, env: environment }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ).stdin?.end();
    });
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}

const claude = join(root, 'node_modules', '.bin', 'claude');
const codex = join(root, 'node_modules', '.bin', 'codex');
/** Claude Code's tools that run commands or write files: never allowed in a test. */
const UNSAFE_TOOLS = 'Bash,Edit,Write,MultiEdit,NotebookEdit,WebFetch,WebSearch,KillShell,Task';

/**
 * Claude Code (`claude -p`) pointed at `baseUrl` as the README says (ANTHROPIC_BASE_URL, the root), with no
 * traffic but to it; `env` gives the key (ANTHROPIC_AUTH_TOKEN or ANTHROPIC_API_KEY).
 */
export function runClaude(baseUrl: string, prompt: string, options: { model?: string; env: Record<string, string> }): Promise<HeadlessRun> {
  return runHeadless(claude, ['-p', prompt, '--model', options.model ?? 'claude-sonnet-4-5', '--disallowedTools', UNSAFE_TOOLS], () => ({
    ANTHROPIC_BASE_URL: baseUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // Claude Code would otherwise send its newest model in place of an older id such as claude-opus-4-1.
    CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: '1',
    ...options.env,
  }));
}

/**
 * Codex CLI (`codex exec`, read-only sandbox) with the README's provider pointed at `${baseUrl}/v1`
 * (`wire_api = "responses"`), the key in its environment, and no retries, so that a refusal is reported at once.
 */
export function runCodex(baseUrl: string, prompt: string, options: { model?: string; key: string }): Promise<HeadlessRun> {
  return runHeadless(codex, ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', prompt], async (home) => {
    await writeFile(
      join(home, 'config.toml'),
      [
        `model = "${options.model ?? 'gpt-4o-mini'}"`,
        'model_provider = "gateway"',
        '',
        '[model_providers.gateway]',
        'name = "AI Model Gateway"',
        `base_url = "${baseUrl}/v1"`,
        'env_key = "GATEWAY_KEY"',
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
      ].join('\n'),
    );
    return { CODEX_HOME: home, GATEWAY_KEY: options.key };
  });
}
