/**
 * The PostgreSQL store (`GATEWAY_STORE=postgres`): the state several instances of the gateway share, so a
 * key made on one works on all at once, a dashboard session opened on one is valid on the others, and a
 * tier's daily image quota holds across all of them together.
 *
 * Every change is one statement, atomic on its own: the quota is reserved by one conditional upsert, which
 * PostgreSQL runs against the latest committed row even under concurrency (an `ON CONFLICT DO UPDATE`
 * locks the row and checks its `WHERE` again), so N instances never grant more than the quota, nor lose a
 * grant. When the database cannot be reached, every call fails with an `unavailable` error (503 with
 * `Retry-After`); the pool makes new connections once it is back.
 */
import pg from 'pg';
import { unavailable } from '../errors.ts';
import { migratePostgres } from './postgres-schema.ts';
import type { ApiKeyRecord, Reservation, Store } from './types.ts';

export interface PostgresOptions {
  /** A `postgres://user:password@host:port/database` URL; TLS as its `sslmode` says (`require`, `verify-full`). */
  url: string;
  /** Connections at most (`GATEWAY_DATABASE_POOL_SIZE`, default 10). */
  poolSize?: number;
  /** Where the store says that the database was lost and is back (default: standard error). */
  warn?: (message: string) => void;
}

/** Seconds a caller is told to wait while the database cannot be reached. */
const RETRY_AFTER_SECONDS = 2;
/** How long a request waits for a connection, and a statement for its answer, before it is a 503. */
const CONNECT_TIMEOUT_MS = 3_000;
const STATEMENT_TIMEOUT_MS = 10_000;

/** Errors that say the database cannot be reached now, rather than that a statement is wrong. */
function isUnreachable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (typeof code === 'string') {
    // Node's socket errors; SQLSTATE class 08 (connection exception), 57P0x (the server is shutting down or
    // starting), 53300 (too many connections), 57014 (our statement timeout: the database is overwhelmed).
    if (/^E[A-Z]+$/.test(code) || code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '57014') return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|connection error/i.test(message ?? '');
}

interface KeyRow {
  id: string;
  name: string;
  tier: ApiKeyRecord['tier'];
  prefix: string;
  demo: boolean;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    prefix: row.prefix,
    demo: row.demo,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

const KEY_COLUMNS = 'id, name, tier, prefix, demo, created_at, last_used_at, revoked_at';

/**
 * Connects, brings the schema up to date, and returns the store; fails (with the database's own message)
 * when the database cannot be reached at start.
 *
 * @example
 * const store = await createPostgresStore({ url: 'postgres://gateway:secret@db.internal:5432/gateway' });
 */
export async function createPostgresStore(options: PostgresOptions): Promise<Store> {
  const warn = options.warn ?? ((message: string) => console.warn(`gateway: ${message}`));
  const pool = openPool(options.url, options.poolSize ?? 10);
  try {
    await migrate(pool, options.url);
  } catch (error) {
    await pool.end();
    throw error;
  }

  let lost = false;
  // Each statement is prepared once per connection (a name per text): PostgreSQL then skips parsing and
  // planning it on every call, which is most of what a short statement costs it.
  const names = new Map<string, string>();
  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `gateway_${names.size}`));
    try {
      const result = await pool.query<R>({ name, text, values });
      if (lost) {
        lost = false;
        warn('the database is reachable again.');
      }
      return result;
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      if (!lost) {
        lost = true;
        warn(`the database cannot be reached (${(error as Error).message}); answering 503 until it is back.`);
      }
      throw unavailable(`The gateway's database cannot be reached; try again in ${RETRY_AFTER_SECONDS} seconds.`, RETRY_AFTER_SECONDS);
    }
  }
  const keyWhere = async (where: string, value: string) =>
    (await query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE ${where} = $1`, [value])).rows.map(toRecord)[0];

  return {
    async createKey(key) {
      await query(
        'INSERT INTO api_keys (id, name, tier, prefix, hash, demo, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
        [key.id, key.name, key.tier, key.prefix, key.hash, key.demo ?? false, key.createdAt ?? new Date().toISOString()],
      );
      const record = await keyWhere('hash', key.hash);
      if (!record) throw new Error(`The key id '${key.id}' is taken by another key.`);
      return record;
    },
    findKeyByHash: (hash) => keyWhere('hash', hash),
    findKey: (id) => keyWhere('id', id),
    async listKeys() {
      return (await query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`, [])).rows.map(toRecord);
    },
    async revokeKey(id, at = new Date()) {
      return (await query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2', [at.toISOString(), id])).rowCount === 1;
    },
    async touchKey(id, at) {
      await query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at.toISOString(), id]);
    },
    async imagesUsed(keyId, day) {
      return (await query<{ used: number }>('SELECT used FROM image_usage WHERE key_id = $1 AND day = $2', [keyId, day])).rows[0]?.used ?? 0;
    },
    async reserveImages(keyId, day, n, limit): Promise<Reservation> {
      // One statement: the upsert grants (and returns the new count) or changes nothing.
      const { rows } = await query<{ used: number }>(
        `INSERT INTO image_usage AS u (key_id, day, used) SELECT $1::text, $2::date, $3::integer WHERE $3::integer <= $4::integer
         ON CONFLICT (key_id, day) DO UPDATE SET used = u.used + EXCLUDED.used WHERE u.used + EXCLUDED.used <= $4::integer
         RETURNING used`,
        [keyId, day, n, limit],
      );
      if (rows[0]) return { granted: true, used: rows[0].used };
      // Refused: the count for the refusal's figures is read by a statement of its own. Read within the
      // upsert's statement, it came from that statement's snapshot, taken before a concurrent reservation
      // (another request, another instance) the upsert waited for and then counted: the 429 said images
      // remained that did not.
      const now = await query<{ used: number }>('SELECT used FROM image_usage WHERE key_id = $1 AND day = $2', [keyId, day]);
      return { granted: false, used: now.rows[0]?.used ?? 0 };
    },
    async releaseImages(keyId, day, n) {
      await query('UPDATE image_usage SET used = GREATEST(0, used - $3) WHERE key_id = $1 AND day = $2', [keyId, day, n]);
    },
    async saveResponse(record, expireBefore) {
      await query(
        `WITH expired AS (DELETE FROM responses WHERE created_at < $6)
         INSERT INTO responses (id, key_id, created_at, response, items) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET key_id = EXCLUDED.key_id, created_at = EXCLUDED.created_at, response = EXCLUDED.response, items = EXCLUDED.items`,
        [record.id, record.keyId, record.createdAt, JSON.stringify(record.response), JSON.stringify(record.items), expireBefore],
      );
    },
    async findResponse(id, keyId) {
      const { rows } = await query<{ id: string; key_id: string; created_at: Date; response: unknown; items: unknown[] }>(
        'SELECT id, key_id, created_at, response, items FROM responses WHERE id = $1 AND key_id = $2',
        [id, keyId],
      );
      const row = rows[0];
      return row && { id: row.id, keyId: row.key_id, createdAt: row.created_at.toISOString(), response: row.response, items: row.items };
    },
    async deleteResponse(id, keyId) {
      return (await query('DELETE FROM responses WHERE id = $1 AND key_id = $2', [id, keyId])).rowCount === 1;
    },
    async saveSession(session, now, max) {
      await query(
        `WITH expired AS (DELETE FROM sessions WHERE expires_at <= $3),
              oldest AS (DELETE FROM sessions WHERE hash IN (SELECT hash FROM sessions ORDER BY expires_at DESC OFFSET $4))
         INSERT INTO sessions (hash, expires_at) VALUES ($1, $2) ON CONFLICT (hash) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
        [session.hash, session.expiresAt, now, max - 1],
      );
    },
    async sessionExpiry(hash) {
      return (await query<{ expires_at: Date }>('SELECT expires_at FROM sessions WHERE hash = $1', [hash])).rows[0]?.expires_at.toISOString();
    },
    async deleteSession(hash) {
      await query('DELETE FROM sessions WHERE hash = $1', [hash]);
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * Brings the database at `url` to the last schema version without opening a store (`npm run migrate`), and
 * returns the versions it applied.
 */
export async function migratePostgresDatabase(url: string): Promise<number[]> {
  const pool = openPool(url, 1);
  try {
    return await migrate(pool, url);
  } finally {
    await pool.end();
  }
}

function openPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'ai-gateway',
  });
  // A pooled connection that breaks while idle (the database restarts) is dropped by the pool; without a
  // listener the error would end the process.
  pool.on('error', () => undefined);
  return pool;
}

/** `migratePostgres`, its failure named by the database (without its password). */
async function migrate(pool: pg.Pool, url: string): Promise<number[]> {
  try {
    return await migratePostgres(pool);
  } catch (error) {
    throw new Error(`PostgreSQL at ${redacted(url)}: ${(error as Error).message}`);
  }
}

/** The URL without its password, for messages and logs. */
export function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
