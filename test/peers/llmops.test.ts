/**
 * `@llmops/gateway` (a fork of Portkey's gateway, a pinned devDependency, served in this process) in front of
 * the reference server, judged by the conformance suite against OpenAI's and Anthropic's protocols. It must
 * fail exactly the checks docs/peer-findings.md lists for it, on exactly the rules listed. Nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmops, type PeerGateway } from '../../scripts/lib/peer-gateways.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { disagreement, documented, failures, judge, peerContracts, quietly } from './verdicts.ts';

let server: TestServer | undefined;
let gateway: PeerGateway | undefined;

beforeAll(async () => {
  server = await startServer({ store: 'memory' });
  gateway = await startLlmops();
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('@llmops/gateway in front of the reference', () => {
  for (const contract of peerContracts) {
    // A run takes a few seconds; the timeout only guards against a hang on a loaded machine.
    it(`--contract ${contract}: fails exactly the checks docs/peer-findings.md lists`, async () => {
      // llmops logs a stack trace for each error case the run provokes; kept, and shown only on a failure.
      const { result: report, log } = await quietly(() => judge(gateway!, server!.baseUrl, contract));
      const found = failures(report);
      const listed = documented(gateway!.name, contract);
      expect(Object.keys(listed).length, `docs/peer-findings.md has no rows for ${gateway!.name}, --contract ${contract}`).toBeGreaterThan(0);
      expect(found, `${disagreement(found, listed, report)}\n\nWhat llmops logged:\n${log.slice(-20_000)}`).toEqual(listed);
      expect(report.summary.passed).toBeGreaterThan(0);
    }, 120_000);
  }
});
