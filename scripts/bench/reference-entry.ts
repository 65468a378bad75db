/**
 * The reference server as the benchmark runs it, in a process of its own so that its memory can be sampled
 * alone: `buildApp` with the memory store (as `GATEWAY_STORE=memory` would) or the store `--store` names,
 * on 127.0.0.1 and a free port. It also issues keys of its own: a starter key for the request and stream
 * loads (the conformance suite may spend or change the demo keys), `--image-keys` ultimate keys, because
 * the image load makes far more images than one key's daily quota allows, and the quota itself is part of
 * what is measured, and `--spent-keys` ultimate keys whose quota for today is already used up (counted in
 * the store directly, not painted), for the load of refused reservations.
 *
 *   node dist/node/scripts/bench/reference-entry.js [--token-delay-ms 20] [--image-keys 100]   (after npm run build:server)
 *        … [--store /tmp/bench.sqlite | postgres://…] [--spent-keys 50] [--catalogue file.json]
 *   node --import tsx scripts/bench/reference-entry.ts …                                       (the sources)
 *
 * Prints one line when it listens:
 * `bench-ready {"port": 40123, "loadKey": "sk-…", "imageKeys": ["sk-…", …], "spentKeys": […], "adminToken": "…"}`.
 * The server is built as `main.ts` builds it (same logger: warnings and errors, which the benchmark passes on).
 */
import { parseArgs } from 'node:util';
import { dailyImageQuota } from '../../src/contract/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { readCatalogueFile } from '../../src/server/catalogue/catalogue-file.ts';
import { utcDay } from '../../src/server/domain/day.ts';
import { issueKey } from '../../src/server/domain/keys.ts';
import { createStore } from '../../src/server/domain/store/index.ts';

const { values } = parseArgs({
  options: {
    'token-delay-ms': { type: 'string', default: '0' },
    'image-keys': { type: 'string', default: '0' },
    'spent-keys': { type: 'string', default: '0' },
    store: { type: 'string', default: 'memory' },
    // A catalogue file, as GATEWAY_CATALOGUE gives it (its upstreams' keys from this process's environment).
    catalogue: { type: 'string' },
  },
});

const store = await createStore(values.store!);
const loadKey = (await issueKey(store, 'bench load', 'starter')).key;
const imageKeys: string[] = [];
for (let i = 0; i < Number(values['image-keys']); i++) imageKeys.push((await issueKey(store, `bench images ${i}`, 'ultimate')).key);
const spentKeys: string[] = [];
const quota = dailyImageQuota('ultimate');
for (let i = 0; i < Number(values['spent-keys']); i++) {
  const { key, record } = await issueKey(store, `bench spent ${i}`, 'ultimate');
  await store.reserveImages(record.id, utcDay(new Date()), quota, quota);
  spentKeys.push(key);
}
const catalogue = values.catalogue === undefined ? undefined : readCatalogueFile(values.catalogue, process.env);
const app = await buildApp({ store, demoKeys: true, tokenDelayMs: Number(values['token-delay-ms']), catalogue });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('the server has no port');
process.stdout.write(`bench-ready ${JSON.stringify({ port: address.port, loadKey, imageKeys, spentKeys, adminToken: app.dashboard.adminToken })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
