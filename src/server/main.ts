/**
 * `npm start`: runs the reference gateway until Ctrl-C, then closes it gracefully (open streams end,
 * the SQLite file is closed).
 */
import { buildApp } from './app.ts';
import { readConfig, type ServerConfig } from './config.ts';
import { demoKeys } from './domain/keys.ts';

let config: ServerConfig;
try {
  config = readConfig(process.argv.slice(2), process.env);
} catch (error) {
  console.error(`gateway: ${(error as Error).message}`);
  process.exit(2);
}

const app = await buildApp({
  store: config.store,
  demoKeys: config.demoKeys,
  tokenDelayMs: config.tokenDelayMs,
  corsOrigins: config.corsOrigins,
  adminToken: config.adminToken,
});

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
  `  Store:          ${config.store === 'memory' ? 'memory (lost on exit)' : `SQLite file ${config.store}`}`,
  config.demoKeys
    ? `  Demo keys:      ${demoKeys.map((k) => k.key).join(', ')}`
    : '  Demo keys:      off',
  '',
  `  curl ${base}/v1/models`,
];
console.log(lines.join('\n'));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: closing…`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
