/**
 * Prints what the conformance suite finds through each third-party gateway in front of the reference server
 * (Portkey's and @llmops/gateway, the pinned devDependencies), as rows of docs/peer-findings.md's tables,
 * and how that differs from what the document lists: the way to refresh the document after a change to
 * the suite, the reference or a gateway's version.
 *
 *   npx tsx scripts/peer-findings.ts
 *
 * Everything listens on 127.0.0.1 with ephemeral ports and is closed at the end; exits 1 when the run and
 * the document disagree.
 */
import { existsSync, readFileSync } from 'node:fs';
import { startPortkey, startLlmops, type PeerGateway } from './lib/peer-gateways.ts';
import { startServer } from '../test/helpers/server.ts';
import { disagreement, documented, failures, findingsFile, judge, peerContracts, quietly, rows } from '../test/peers/verdicts.ts';

const doc = existsSync(findingsFile) ? readFileSync(findingsFile, 'utf8') : '';

const server = await startServer({ store: 'memory' });
let agree = true;
try {
  for (const [label, start] of [['Portkey', startPortkey], ['llmops', startLlmops]] as const) {
    const gateway: PeerGateway = await start();
    try {
      console.log(`## ${label}: ${gateway.name}\n`);
      for (const contract of peerContracts) {
        const { result: report } = await quietly(() => judge(gateway, server.baseUrl, contract));
        const { passed, failed, skipped, waived } = report.summary;
        console.log(`### --contract ${contract}: ${failed} failed, ${passed} passed, ${skipped} skipped, ${waived} waived (${(report.durationMs / 1000).toFixed(1)} s)\n`);
        console.log('| Check | Rule (vendor page) | What the exchange shows |\n|---|---|---|');
        for (const r of report.results.filter((x) => x.outcome === 'failed')) for (const row of rows(r)) console.log(row);
        const differs = disagreement(failures(report), documented(gateway.name, contract, doc), report);
        console.log(differs ? `\nDiffers from docs/peer-findings.md:\n${differs}\n` : '\nAs docs/peer-findings.md lists.\n');
        if (differs) agree = false;
      }
    } finally {
      await gateway.close();
    }
  }
} finally {
  await server.close();
}
process.exitCode = agree ? 0 : 1;
