/**
 * The reference server as the benchmark runs it, built as `main.ts` builds it, in a process of its own so that
 * its memory and CPU time are its own: the memory store or the one `--store` names, on 127.0.0.1 and a free
 * port. It issues keys of its own: a starter key for the loads, `--image-keys` ultimate keys (the image loads
 * make far more images than one key's daily quota), and `--spent-keys` ultimate keys whose quota for today is
 * used up, for the refused reservations. Another commit's build runs its own copy (`--baseline`), so the
 * options and the line it prints when it listens stay as they are:
 *
 *   node dist/node/scripts/bench/reference-entry.js [--token-delay-ms 20] [--image-keys 100] [--spent-keys 50]
 *        [--store /tmp/bench.sqlite | postgres://…] [--catalogue file.json] [--log-level error]
 *   → bench-ready {"port": 40123, "loadKey": "sk-…", "imageKeys": ["sk-…", …], "spentKeys": […]}
 */
import { parseArgs } from 'node:util';
import { dailyImageQuota } from '../../src/contract/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { defaultLogOptions } from '../../src/server/http/logger.ts';
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
    // pino's level (default: the server's, warnings and errors).
    'log-level': { type: 'string' },
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
const logger = values['log-level'] === undefined ? defaultLogOptions : { ...defaultLogOptions, level: values['log-level'] };
const app = await buildApp({ store, demoKeys: true, tokenDelayMs: Number(values['token-delay-ms']), catalogue, logger });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('the server has no port');
process.stdout.write(`bench-ready ${JSON.stringify({ port: address.port, loadKey, imageKeys, spentKeys })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
