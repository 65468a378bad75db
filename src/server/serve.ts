/**
 * Runs the gateway with its settings until SIGTERM or Ctrl-C, then closes it gracefully (decision D23): no new
 * connections, running requests and open streams finish within the grace period, the store is closed, and the
 * process exits 0. A second signal exits at once. What it starts with is printed first: the address it
 * listens on (with `--port 0`, the port it was given), the docs, the dashboard, the store and the models.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { readCatalogueFile, upstreamsOf, type CatalogueEntry } from './catalogue/catalogue-file.ts';
import { isLoopback, storeLabel, type DemoKeysDefault, type ServerConfig } from './config.ts';
import { demoKeys } from './domain/keys.ts';
import { isPostgresUrl } from './domain/store/index.ts';
import { closeGracefully } from './http/shutdown.ts';

/** How the command that runs the gateway is named and what its demo keys do by default. */
export interface Command {
  /** What an operator types to run it: `ai-gateway`, or `npm start --` in the repository. */
  program: string;
  demoKeys: DemoKeysDefault;
}

/** Serves until a signal ends the process; a setting it cannot use ends it with exit code 2, a port it cannot take with 1. */
export async function serve(config: ServerConfig, env: NodeJS.ProcessEnv, command: Command): Promise<void> {
  let catalogue: CatalogueEntry[] | undefined;
  try {
    catalogue = config.catalogue === undefined ? undefined : readCatalogueFile(config.catalogue, env);
  } catch (error) {
    console.error(`gateway: catalogue ${(error as Error).message}`);
    process.exit(2);
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

  console.log(banner(app, config, catalogue, command).join('\n'));
  if (config.demoKeysExposed) {
    console.warn(
      `gateway: WARNING: the demo keys (one of tier ultimate) are on and the server listens on ${config.host}, ` +
        'beyond this machine: anyone who can reach it can use them. Set GATEWAY_DEMO_KEYS=off unless that is what you want.',
    );
  }
  closeOnSignals(app, config.shutdownGraceMs);
}

/** What the server says when it starts: where everything is, and never a key of an upstream or a database password. */
function banner(app: FastifyInstance, config: ServerConfig, catalogue: CatalogueEntry[] | undefined, command: Command): string[] {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  return [
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
    `  Store:          ${storeLine(config)}`,
    `  Models:         ${catalogueLabel(config, catalogue)}`,
    config.demoKeys ? `  Demo keys:      ${demoKeys.map((k) => k.key).join(', ')}` : `  Demo keys:      off (${demoKeysOffReason(config, command)})`,
    '',
    `  curl ${base}/v1/models`,
  ];
}

/** What the start-up banner says of the store (never a database password). */
function storeLine(config: ServerConfig): string {
  if (config.store === 'memory') return 'memory (lost on exit)';
  return isPostgresUrl(config.store) ? `${storeLabel(config.store)} (up to ${config.databasePoolSize} connections)` : storeLabel(config.store);
}

/** What the start-up banner says of the models: how many, and where the upstreams are (never a key). */
function catalogueLabel(config: ServerConfig, catalogue: CatalogueEntry[] | undefined): string {
  if (!catalogue) return 'the built-in catalogue (the contract\'s listing), answered by the built-in engine';
  const upstreams = [...new Set(catalogue.flatMap((m) => upstreamsOf(m).map((u) => `${u.protocol} ${u.base_url}`)))];
  const engine = catalogue.filter((m) => upstreamsOf(m).length === 0).length;
  return [`${catalogue.length} from ${config.catalogue}`, ...(engine > 0 ? [`${engine} on the built-in engine`] : []), ...upstreams.map((u) => `upstream ${u}`)].join('; ');
}

/** Why the demo keys are off, and how to have a key. */
function demoKeysOffReason(config: ServerConfig, command: Command): string {
  // The memory store is this process's own: only its dashboard can add to it.
  const makeOne = config.store === 'memory' ? 'make a key in the dashboard' : `make a key in the dashboard or with \`${command.program} keys create --tier starter\``;
  if (command.demoKeys === 'asked') return `--demo-keys or GATEWAY_DEMO_KEYS=on to have them; ${makeOne}`;
  return isLoopback(config.host) ? makeOne : 'on by default for a loopback host only; GATEWAY_DEMO_KEYS=on to have them';
}

function closeOnSignals(app: FastifyInstance, graceMs: number): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        console.log(`${signal} again: exiting now.`);
        process.exit(1);
      }
      stopping = true;
      console.log(`\n${signal}: finishing running requests (up to ${graceMs / 1000} s)…`);
      closeGracefully(app, graceMs).then(
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
}
