/**
 * The reference server as the benchmark runs it, in a process of its own so that its memory can be sampled
 * alone: `buildApp` with the memory store (as `GATEWAY_STORE=memory` would), on 127.0.0.1 and a free port.
 * It also issues keys of its own: a starter key for the request and stream loads (the conformance suite
 * may spend or change the demo keys), and `--image-keys` ultimate keys, because the image load makes far
 * more images than one key's daily quota allows, and the quota itself is part of what is measured.
 *
 *   node dist/node/scripts/bench/reference-entry.js [--token-delay-ms 20] [--image-keys 100]   (after npm run build:server)
 *   node --import tsx scripts/bench/reference-entry.ts …                                       (the sources)
 *
 * Prints one line when it listens: `bench-ready {"port": 40123, "loadKey": "sk-…", "imageKeys": ["sk-…", …]}`.
 * The server is built as `main.ts` builds it (same logger: warnings and errors, which the benchmark passes on).
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../../src/server/app.ts';
import { issueKey } from '../../src/server/domain/keys.ts';
import { createStore } from '../../src/server/domain/store/index.ts';

const { values } = parseArgs({
  options: {
    'token-delay-ms': { type: 'string', default: '0' },
    'image-keys': { type: 'string', default: '0' },
  },
});

const store = createStore('memory');
const loadKey = issueKey(store, 'bench load', 'starter').key;
const imageKeys = Array.from({ length: Number(values['image-keys']) }, (_, i) => issueKey(store, `bench images ${i}`, 'ultimate').key);
const app = await buildApp({ store, demoKeys: true, tokenDelayMs: Number(values['token-delay-ms']) });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('the server has no port');
process.stdout.write(`bench-ready ${JSON.stringify({ port: address.port, loadKey, imageKeys })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
