/**
 * The server's settings, from the environment and the command line (a flag wins over its variable). Every
 * setting is both: `settings` below lists them, once, for the parser, for `--help` and for the README's table.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isIP } from 'node:net';
import { isPostgresUrl } from './domain/store/index.ts';
import { redacted } from './domain/store/postgres.ts';
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

/**
 * When the demo keys are on without being asked for (decision D26): `loopback` when the server listens on a
 * loopback host (the repository's `npm start`, whose first run uses them), `asked` never (the installed
 * package, an operator's gateway).
 */
export type DemoKeysDefault = 'loopback' | 'asked';

/** One setting: its flag, its environment variable, what it is and its default, as `--help` shows them. */
export interface Setting {
  flag: string;
  env: string;
  /** The placeholder of its value in `--help`; none for an on/off switch. */
  value?: string;
  about: string;
  default: string;
}

export const settings: readonly Setting[] = [
  { flag: 'port', env: 'PORT', value: 'N', about: 'port to listen on (0: any free port)', default: '8080' },
  { flag: 'host', env: 'HOST', value: 'HOST', about: 'address to listen on', default: '127.0.0.1' },
  { flag: 'store', env: 'GATEWAY_STORE', value: 'KIND', about: 'sqlite (kept across restarts), postgres (shared by several instances) or memory', default: 'sqlite' },
  { flag: 'db', env: 'GATEWAY_DB', value: 'FILE', about: 'the SQLite file', default: 'data/gateway.sqlite' },
  { flag: 'database-url', env: 'GATEWAY_DATABASE_URL', value: 'URL', about: 'the PostgreSQL database, postgres://user:password@host:5432/database (TLS: ?sslmode=require or verify-full)', default: 'none' },
  { flag: 'database-pool-size', env: 'GATEWAY_DATABASE_POOL_SIZE', value: 'N', about: 'PostgreSQL connections per instance', default: '10' },
  { flag: 'demo-keys', env: 'GATEWAY_DEMO_KEYS', about: 'the demo keys sk-demo-<tier>, on or off', default: 'on for a loopback host only (npm start), off (ai-gateway)' },
  { flag: 'token-delay-ms', env: 'GATEWAY_TOKEN_DELAY_MS', value: 'MS', about: 'delay between streamed tokens of the built-in engine', default: '0' },
  { flag: 'cors-origins', env: 'GATEWAY_CORS_ORIGINS', value: 'LIST', about: 'CORS origins, comma-separated, * for any', default: '*' },
  { flag: 'admin-token', env: 'GATEWAY_ADMIN_TOKEN', value: 'TOKEN', about: "the dashboard's admin token, 16 characters or more", default: 'generated and printed' },
  { flag: 'headers-timeout-ms', env: 'GATEWAY_HEADERS_TIMEOUT_MS', value: 'MS', about: 'time for the request line and headers (then 408)', default: String(defaultTimeouts.headersMs) },
  { flag: 'request-timeout-ms', env: 'GATEWAY_REQUEST_TIMEOUT_MS', value: 'MS', about: 'time for the whole request, body included (then 408)', default: String(defaultTimeouts.requestMs) },
  { flag: 'idle-timeout-ms', env: 'GATEWAY_IDLE_TIMEOUT_MS', value: 'MS', about: 'a connection silent this long is closed', default: String(defaultTimeouts.idleMs) },
  { flag: 'keep-alive-timeout-ms', env: 'GATEWAY_KEEP_ALIVE_TIMEOUT_MS', value: 'MS', about: 'keep-alive wait for the next request', default: String(defaultTimeouts.keepAliveMs) },
  { flag: 'shutdown-grace-ms', env: 'GATEWAY_SHUTDOWN_GRACE_MS', value: 'MS', about: 'grace for running requests after SIGTERM', default: '10000' },
  { flag: 'text-workers', env: 'GATEWAY_TEXT_WORKERS', value: 'N', about: "worker threads of the text engine", default: 'one per core' },
  { flag: 'image-workers', env: 'GATEWAY_IMAGE_WORKERS', value: 'N', about: 'worker threads of the image engine', default: 'one per core' },
  { flag: 'catalogue', env: 'GATEWAY_CATALOGUE', value: 'FILE', about: 'the models and where their answers come from (YAML or JSON)', default: "the contract's listing, on the built-in engine" },
];

/** The settings' flags, for node's parseArgs (the demo-keys switch with its `--no-` form). */
export const settingOptions = Object.fromEntries(
  settings.flatMap((s): Array<[string, { type: 'string' | 'boolean' }]> =>
    s.value === undefined ? [[s.flag, { type: 'boolean' }], [`no-${s.flag}`, { type: 'boolean' }]] : [[s.flag, { type: 'string' }]],
  ),
) satisfies NonNullable<ParseArgsConfig['options']>;

/** The flags' values as parseArgs gives them. */
export type SettingValues = Record<string, string | boolean | undefined>;

/** How messages name a store: never with a database password. */
export function storeLabel(store: string): string {
  if (store === 'memory') return 'the memory store';
  return isPostgresUrl(store) ? `PostgreSQL ${redacted(store)}` : `SQLite file ${store}`;
}

/** Whether a host name or address reaches this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * The settings from a command line of settings alone and the environment.
 *
 * @example
 * readConfig(['--port', '9000'], process.env).port; // 9000
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv, demoKeysDefault: DemoKeysDefault = 'loopback'): ServerConfig {
  const { values } = parseArgs({ args: argv, options: settingOptions, strict: true });
  return configFrom(values, env, demoKeysDefault);
}

/** The settings from flags already parsed (a command with options of its own parses them with `settingOptions`) and the environment. */
export function configFrom(values: SettingValues, env: NodeJS.ProcessEnv, demoKeysDefault: DemoKeysDefault = 'loopback'): ServerConfig {
  /** A setting's text: its flag's value, else its variable's. */
  const given = (flag: string): string | undefined => {
    const value = values[flag];
    return typeof value === 'string' ? value : env[settingNamed(flag).env];
  };
  /** A whole number within bounds, named by its variable and flag when it is not one. */
  const integer = (flag: string, fallback: number, min: number, max: number): number => {
    const text = given(flag) ?? String(fallback);
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${settingNamed(flag).env} (--${flag}) must be an integer from ${min} to ${max}, not '${text}'.`);
    }
    return value;
  };
  const storeKind = given('store') ?? 'sqlite';
  if (storeKind !== 'memory' && storeKind !== 'sqlite' && storeKind !== 'postgres') {
    throw new Error(`GATEWAY_STORE must be 'sqlite', 'postgres' or 'memory', not '${storeKind}'.`);
  }
  const databaseUrl = given('database-url');
  if (storeKind === 'postgres' && !databaseUrl) {
    throw new Error('GATEWAY_STORE=postgres needs GATEWAY_DATABASE_URL (or --database-url), such as postgres://gateway:secret@db.internal:5432/gateway.');
  }
  if (storeKind === 'postgres' && !isPostgresUrl(databaseUrl!)) {
    throw new Error('GATEWAY_DATABASE_URL must be a postgres:// or postgresql:// URL, such as postgres://gateway:secret@db.internal:5432/gateway.');
  }
  const origins = given('cors-origins') ?? '*';
  const host = given('host') ?? '127.0.0.1';
  const demoKeys = demoKeysSetting(values['demo-keys'] === true, values['no-demo-keys'] === true, env.GATEWAY_DEMO_KEYS) ?? (demoKeysDefault === 'loopback' && isLoopback(host));
  const cores = defaultWorkerSettings();
  const ms = (flag: string, fallback: number) => integer(flag, fallback, 1, 3_600_000);
  return {
    port: integer('port', 8080, 0, 65535),
    host,
    store: storeKind === 'memory' ? 'memory' : storeKind === 'postgres' ? databaseUrl! : (given('db') ?? 'data/gateway.sqlite'),
    databasePoolSize: integer('database-pool-size', 10, 1, 1000),
    demoKeys,
    demoKeysExposed: demoKeys && !isLoopback(host),
    timeouts: {
      headersMs: ms('headers-timeout-ms', defaultTimeouts.headersMs),
      requestMs: ms('request-timeout-ms', defaultTimeouts.requestMs),
      idleMs: ms('idle-timeout-ms', defaultTimeouts.idleMs),
      keepAliveMs: ms('keep-alive-timeout-ms', defaultTimeouts.keepAliveMs),
    },
    shutdownGraceMs: integer('shutdown-grace-ms', 10_000, 0, 3_600_000),
    workers: {
      text: { ...cores.text, workers: integer('text-workers', cores.text.workers, 1, 256) },
      images: { ...cores.images, workers: integer('image-workers', cores.images.workers, 1, 256) },
    },
    tokenDelayMs: integer('token-delay-ms', 0, 0, 60_000),
    corsOrigins: origins.trim() === '*' ? true : origins.split(',').map((o) => o.trim()).filter(Boolean),
    adminToken: given('admin-token'),
    catalogue: given('catalogue')?.trim() || undefined,
  };
}

function settingNamed(flag: string): Setting {
  return settings.find((s) => s.flag === flag)!;
}

/** The demo-keys switch as given (flags first), or undefined for the default. */
function demoKeysSetting(on: boolean, off: boolean, env: string | undefined): boolean | undefined {
  if (on && off) throw new Error('Give --demo-keys or --no-demo-keys, not both.');
  if (on) return true;
  if (off) return false;
  if (env === undefined || env.trim() === '') return undefined;
  const value = env.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new Error(`GATEWAY_DEMO_KEYS must be 'on' or 'off', not '${env}'.`);
}
