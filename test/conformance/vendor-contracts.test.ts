/**
 * The reference server against the vendor protocols' descriptions (D30): OpenAI's with exactly the waivers its
 * decisions table documents, each of them needed; Anthropic's with none. Both in one run, as a server that
 * speaks both is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport } from '../../src/conformance/report/console.ts';
import { runConformance } from '../../src/conformance/run.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { demoKeys } from './helpers/keys.ts';
import { documentedWaivers } from './helpers/waivers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ store: 'memory' });
});

afterAll(async () => {
  await server.close();
});

describe('the reference against the vendor protocols', () => {
  it('passes OpenAI\'s with exactly the documented waivers, and Anthropic\'s with none', async () => {
    const waive = documentedWaivers();
    expect(waive).toEqual(['openai/error-object', 'openai/model-list', 'openai:listModels/auth']);
    const report = await runConformance({
      baseUrl: server.baseUrl, contracts: ['openai', 'anthropic'], apiKeys: [demoKeys.ultimate, demoKeys.pro], waive, profile: 'full',
    });
    expect(report.summary.failed, formatReport(report)).toBe(0);
    expect(report.contracts).toEqual(['openai', 'anthropic']);
    // Every check id names its contract; nothing of the gateway's own (images, tiers, quotas) is checked.
    expect(report.results.every((r) => r.id.startsWith(`${r.contract}:`))).toBe(true);
    expect(report.results.some((r) => ['images', 'tiers', 'quota'].includes(r.family))).toBe(false);
    // Each waiver is needed: it covers a deviation the run found, and nothing of Anthropic's is waived.
    const waived = report.results.filter((r) => r.outcome === 'waived');
    for (const w of waive) {
      expect(waived.some((r) => r.violations.some((v) => v.ruleId === w) || r.id.startsWith(w)), w).toBe(true);
    }
    expect(waived.every((r) => r.contract === 'openai')).toBe(true);
    expect(report.results.filter((r) => r.outcome === 'skipped').map((r) => r.id)).toEqual([]);
    // The protocol rules that are not the gateway's reference decisions run in core.
    for (const id of ['openai:createResponse/streaming/grammar', 'openai:createChatCompletion/streaming/tool-calls', 'anthropic:createMessage/streaming/input-tokens',
      'anthropic:createMessage/behaviour/stop-sequence', 'anthropic:createMessage/auth/beta', 'openai:createResponse/behaviour/previous-response', 'openai:createChatCompletion/behaviour/json-object']) {
      expect(report.results.find((r) => r.id === id)?.outcome, id).toMatch(/passed|waived/);
    }
  });

  it('fails OpenAI\'s without the waivers, on those rules only', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, contracts: ['openai'], apiKeys: [demoKeys.ultimate], only: ['openai:listModels', 'openai:createChatCompletion/validation'] });
    const broken = new Set(report.results.flatMap((r) => r.violations.map((v) => v.ruleId)));
    expect([...broken].sort()).toEqual(['openai/authentication', 'openai/error-object', 'openai/model-list']);
    const failure = report.results.find((r) => r.id === 'openai:listModels/responses/no body')!.violations[0]!;
    expect(failure).toMatchObject({ ruleId: 'openai/model-list', url: 'https://platform.openai.com/docs/api-reference/models/list' });
  });
});
