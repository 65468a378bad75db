/**
 * `npm start`: runs the reference gateway until SIGTERM or Ctrl-C, then closes it gracefully (decision D23):
 * no new connections, running requests and open streams finish within the grace period, the SQLite file is
 * closed, and the process exits 0. A second signal exits at once.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { readCatalogueFile, upstreamsOf, type CatalogueEntry } from './catalogue/catalogue-file.ts';
import { isLoopback, readConfig, type ServerConfig } from './config.ts';
import { demoKeys } from './domain/keys.ts';
import { isPostgresUrl } from './domain/store/index.ts';
import { redacted } from './domain/store/postgres.ts';
import { closeGracefully } from './http/shutdown.ts';

let config: ServerConfig;
try {
  config = readConfig(process.argv.slice(2), process.env);
} catch (error) {
  console.error(`gateway: ${(error as Error).message}`);
  process.exit(2);
}

/** What the start-up banner says of the store (never a database password). */
function storeLabel(store: string): string {
  if (store === 'memory') return 'memory (lost on exit)';
  if (isPostgresUrl(store)) return `PostgreSQL ${redacted(store)} (up to ${config.databasePoolSize} connections)`;
  return `SQLite file ${store}`;
}

let catalogue: CatalogueEntry[] | undefined;
try {
  catalogue = config.catalogue === undefined ? undefined : readCatalogueFile(config.catalogue, process.env);
} catch (error) {
  console.error(`gateway: catalogue ${(error as Error).message}`);
  process.exit(2);
}

/** What the start-up banner says of the models: how many, and where the upstreams are (never a key). */
function catalogueLabel(): string {
  if (!catalogue) return 'the built-in catalogue (the contract\'s listing), answered by the built-in engine';
  const upstreams = [...new Set(catalogue.flatMap((m) => upstreamsOf(m).map((u) => `${u.protocol} ${u.base_url}`)))];
  const engine = catalogue.filter((m) => upstreamsOf(m).length === 0).length;
  return [`${catalogue.length} from ${config.catalogue}`, ...(engine > 0 ? [`${engine} on the built-in engine`] : []), ...upstreams.map((u) => `upstream ${u}`)].join('; ');
}

let app: FastifyInstance;
try {
  app = await buildApp({
    catalogue,
    store: config.store,
    databasePoolSize: config.databasePoolSize,
    demoKeys: config.demoKeys,
    tokenDelayMs: config.tokenDelayMs,
    corsOrigins: config.corsOrigins,
    adminToken: config.adminToken,
    timeouts: config.timeouts,
    workers: config.workers,
  });
} catch (error) {
  console.error(`gateway: ${(error as Error).message}`);
  process.exit(2);
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(`gateway: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  process.exit(1);
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
const lines = [
  `AI Model Gateway (reference implementation) listening on ${base}`,
  `  API base URL:   ${base}/v1   (OpenAI SDKs: baseURL = ${base}/v1)`,
  `  Docs:           ${base}/docs`,
  `  OpenAPI:        ${base}/openapi.json`,
  `  Dashboard:      ${base}${app.dashboard.path}   (Settings → API Keys → Create New Key)`,
  `  Admin API:      ${base}/docs/admin   (the dashboard's operations, for scripts)`,
  // A generated token is printed, or nobody could sign in; a configured one is already known and stays out of logs.
  app.dashboard.adminTokenGenerated
    ? `  Admin token:    ${app.dashboard.adminToken}   (generated for this run; set GATEWAY_ADMIN_TOKEN or --admin-token to keep one)`
    : '  Admin token:    as configured (GATEWAY_ADMIN_TOKEN or --admin-token)',
  `  Store:          ${storeLabel(config.store)}`,
  `  Models:         ${catalogueLabel()}`,
  config.demoKeys
    ? `  Demo keys:      ${demoKeys.map((k) => k.key).join(', ')}`
    : `  Demo keys:      off${isLoopback(config.host) ? '' : ' (on by default for a loopback host only; GATEWAY_DEMO_KEYS=on to have them)'}`,
  '',
  `  curl ${base}/v1/models`,
];
console.log(lines.join('\n'));
if (config.demoKeysExposed) {
  console.warn(
    `gateway: WARNING: the demo keys (one of tier ultimate) are on and the server listens on ${config.host}, ` +
      'beyond this machine: anyone who can reach it can use them. Set GATEWAY_DEMO_KEYS=off unless that is what you want.',
  );
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      console.log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${signal}: finishing running requests (up to ${config.shutdownGraceMs / 1000} s)…`);
    closeGracefully(app, config.shutdownGraceMs).then(
      (clean) => {
        console.log(clean ? 'Closed.' : 'Closed; connections still open after the grace period were cut.');
        process.exit(0);
      },
      (error: Error) => {
        console.error(`gateway: closing failed: ${error.message}`);
        process.exit(1);
      },
    );
  });
}
