/**
 * The server's settings, from the environment and the command line (flags win):
 *
 * | Variable | Flag | Default |
 * |---|---|---|
 * | `PORT` | `--port` | 8080 |
 * | `HOST` | `--host` | 127.0.0.1 |
 * | `GATEWAY_STORE` (`sqlite`, `postgres` or `memory`) | `--store` | sqlite |
 * | `GATEWAY_DB` (SQLite file) | `--db` | data/gateway.sqlite |
 * | `GATEWAY_DATABASE_URL` (PostgreSQL, `postgres://user:password@host:5432/database`, TLS by `sslmode`) | `--database-url` | none |
 * | `GATEWAY_DATABASE_POOL_SIZE` (PostgreSQL connections per instance) | | 10 |
 * | `GATEWAY_DEMO_KEYS` (`on` or `off`) | `--demo-keys`, `--no-demo-keys` | on for a loopback host only (decision D26) |
 * | `GATEWAY_TOKEN_DELAY_MS` | `--token-delay-ms` | 0 |
 * | `GATEWAY_CORS_ORIGINS` (comma-separated, `*` for any) | `--cors-origins` | `*` |
 * | `GATEWAY_ADMIN_TOKEN` (16 characters or more) | `--admin-token` | generated and printed at start |
 * | `GATEWAY_HEADERS_TIMEOUT_MS` | | 10000 |
 * | `GATEWAY_REQUEST_TIMEOUT_MS` (whole request, body included) | | 60000 |
 * | `GATEWAY_IDLE_TIMEOUT_MS` (nothing sent or received) | | 120000 |
 * | `GATEWAY_KEEP_ALIVE_TIMEOUT_MS` | | 5000 |
 * | `GATEWAY_SHUTDOWN_GRACE_MS` (for running requests after SIGTERM) | | 10000 |
 * | `GATEWAY_TEXT_WORKERS`, `GATEWAY_IMAGE_WORKERS` | | one per core |
 * | `GATEWAY_CATALOGUE` (YAML or JSON: the models and their upstreams, catalogue/catalogue-file.ts) | `--catalogue` | the contract's listing, on the built-in engine |
 */
import { parseArgs } from 'node:util';
import { isIP } from 'node:net';
import { isPostgresUrl } from './domain/store/index.ts';
import { defaultTimeouts, type Timeouts } from './http/timeouts.ts';
import { defaultWorkerSettings, type WorkerSettings } from './workers/engines.ts';

export interface ServerConfig {
  port: number;
  host: string;
  /** `memory`, a `postgres://` URL, or the path of a SQLite file. */
  store: string;
  databasePoolSize: number;
  demoKeys: boolean;
  /** Whether the demo keys are on for a host other than loopback (so the operator is warned). */
  demoKeysExposed: boolean;
  tokenDelayMs: number;
  corsOrigins: true | string[];
  adminToken: string | undefined;
  timeouts: Timeouts;
  shutdownGraceMs: number;
  workers: WorkerSettings;
  /** The catalogue file's path, or undefined for the built-in catalogue. */
  catalogue: string | undefined;
}

/** Whether a host name or address reaches this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      store: { type: 'string' },
      db: { type: 'string' },
      'database-url': { type: 'string' },
      'demo-keys': { type: 'boolean' },
      'no-demo-keys': { type: 'boolean' },
      'token-delay-ms': { type: 'string' },
      'cors-origins': { type: 'string' },
      'admin-token': { type: 'string' },
      catalogue: { type: 'string' },
    },
    strict: true,
  });
  const storeKind = values.store ?? env.GATEWAY_STORE ?? 'sqlite';
  if (storeKind !== 'memory' && storeKind !== 'sqlite' && storeKind !== 'postgres') {
    throw new Error(`GATEWAY_STORE must be 'sqlite', 'postgres' or 'memory', not '${storeKind}'.`);
  }
  const databaseUrl = values['database-url'] ?? env.GATEWAY_DATABASE_URL;
  if (storeKind === 'postgres' && !databaseUrl) {
    throw new Error('GATEWAY_STORE=postgres needs GATEWAY_DATABASE_URL (or --database-url), such as postgres://gateway:secret@db.internal:5432/gateway.');
  }
  if (storeKind === 'postgres' && !isPostgresUrl(databaseUrl!)) {
    throw new Error('GATEWAY_DATABASE_URL must be a postgres:// or postgresql:// URL, such as postgres://gateway:secret@db.internal:5432/gateway.');
  }
  const origins = values['cors-origins'] ?? env.GATEWAY_CORS_ORIGINS ?? '*';
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  const demoKeys = demoKeysSetting(values['demo-keys'], values['no-demo-keys'], env.GATEWAY_DEMO_KEYS) ?? isLoopback(host);
  const cores = defaultWorkerSettings();
  const ms = (name: string, fallback: number) => integer(name, env[name] ?? String(fallback), 1, 3_600_000);
  return {
    port: integer('PORT', values.port ?? env.PORT ?? '8080', 0, 65535),
    host,
    store: storeKind === 'memory' ? 'memory' : storeKind === 'postgres' ? databaseUrl! : (values.db ?? env.GATEWAY_DB ?? 'data/gateway.sqlite'),
    databasePoolSize: integer('GATEWAY_DATABASE_POOL_SIZE', env.GATEWAY_DATABASE_POOL_SIZE ?? '10', 1, 1000),
    demoKeys,
    demoKeysExposed: demoKeys && !isLoopback(host),
    timeouts: {
      headersMs: ms('GATEWAY_HEADERS_TIMEOUT_MS', defaultTimeouts.headersMs),
      requestMs: ms('GATEWAY_REQUEST_TIMEOUT_MS', defaultTimeouts.requestMs),
      idleMs: ms('GATEWAY_IDLE_TIMEOUT_MS', defaultTimeouts.idleMs),
      keepAliveMs: ms('GATEWAY_KEEP_ALIVE_TIMEOUT_MS', defaultTimeouts.keepAliveMs),
    },
    shutdownGraceMs: integer('GATEWAY_SHUTDOWN_GRACE_MS', env.GATEWAY_SHUTDOWN_GRACE_MS ?? '10000', 0, 3_600_000),
    workers: {
      text: { ...cores.text, workers: integer('GATEWAY_TEXT_WORKERS', env.GATEWAY_TEXT_WORKERS ?? String(cores.text.workers), 1, 256) },
      images: { ...cores.images, workers: integer('GATEWAY_IMAGE_WORKERS', env.GATEWAY_IMAGE_WORKERS ?? String(cores.images.workers), 1, 256) },
    },
    tokenDelayMs: integer('GATEWAY_TOKEN_DELAY_MS', values['token-delay-ms'] ?? env.GATEWAY_TOKEN_DELAY_MS ?? '0', 0, 60_000),
    corsOrigins: origins.trim() === '*' ? true : origins.split(',').map((o) => o.trim()).filter(Boolean),
    adminToken: values['admin-token'] ?? env.GATEWAY_ADMIN_TOKEN,
    catalogue: (values.catalogue ?? env.GATEWAY_CATALOGUE)?.trim() || undefined,
  };
}

/** The demo-keys switch as given (flags first), or undefined for the default. */
function demoKeysSetting(on: boolean | undefined, off: boolean | undefined, env: string | undefined): boolean | undefined {
  if (on && off) throw new Error('Give --demo-keys or --no-demo-keys, not both.');
  if (on) return true;
  if (off) return false;
  if (env === undefined || env.trim() === '') return undefined;
  const value = env.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new Error(`GATEWAY_DEMO_KEYS must be 'on' or 'off', not '${env}'.`);
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, not '${text}'.`);
  return value;
}
