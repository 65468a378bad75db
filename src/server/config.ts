/**
 * The server's settings, from the environment and the command line (flags win):
 *
 * | Variable | Flag | Default |
 * |---|---|---|
 * | `PORT` | `--port` | 8080 |
 * | `HOST` | `--host` | 127.0.0.1 |
 * | `GATEWAY_STORE` (`memory` or `sqlite`) | `--store` | sqlite |
 * | `GATEWAY_DB` (SQLite file) | `--db` | data/gateway.sqlite |
 * | `GATEWAY_DEMO_KEYS` (`off` to disable) | `--no-demo-keys` | on |
 * | `GATEWAY_TOKEN_DELAY_MS` | `--token-delay-ms` | 0 |
 * | `GATEWAY_CORS_ORIGINS` (comma-separated, `*` for any) | `--cors-origins` | `*` |
 * | `GATEWAY_ADMIN_TOKEN` | `--admin-token` | generated and printed at start |
 */
import { parseArgs } from 'node:util';

export interface ServerConfig {
  port: number;
  host: string;
  store: string;
  demoKeys: boolean;
  tokenDelayMs: number;
  corsOrigins: true | string[];
  adminToken: string | undefined;
}

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      store: { type: 'string' },
      db: { type: 'string' },
      'no-demo-keys': { type: 'boolean' },
      'token-delay-ms': { type: 'string' },
      'cors-origins': { type: 'string' },
      'admin-token': { type: 'string' },
    },
    strict: true,
  });
  const storeKind = values.store ?? env.GATEWAY_STORE ?? 'sqlite';
  if (storeKind !== 'memory' && storeKind !== 'sqlite') throw new Error(`GATEWAY_STORE must be 'memory' or 'sqlite', not '${storeKind}'.`);
  const origins = values['cors-origins'] ?? env.GATEWAY_CORS_ORIGINS ?? '*';
  return {
    port: integer('PORT', values.port ?? env.PORT ?? '8080', 0, 65535),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    store: storeKind === 'memory' ? 'memory' : (values.db ?? env.GATEWAY_DB ?? 'data/gateway.sqlite'),
    demoKeys: !(values['no-demo-keys'] ?? ['off', 'false', '0', 'no'].includes((env.GATEWAY_DEMO_KEYS ?? '').toLowerCase())),
    tokenDelayMs: integer('GATEWAY_TOKEN_DELAY_MS', values['token-delay-ms'] ?? env.GATEWAY_TOKEN_DELAY_MS ?? '0', 0, 60_000),
    corsOrigins: origins.trim() === '*' ? true : origins.split(',').map((o) => o.trim()).filter(Boolean),
    adminToken: values['admin-token'] ?? env.GATEWAY_ADMIN_TOKEN,
  };
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, not '${text}'.`);
  return value;
}
