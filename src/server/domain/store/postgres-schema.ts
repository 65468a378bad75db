/**
 * The PostgreSQL store's schema, as versioned migrations, and the one function that applies them. Every
 * instance applies what is missing when it starts (`npm run migrate` does the same alone); a session-level
 * advisory lock makes instances that start together take turns, so each migration runs once, inside a
 * transaction with its row in `gateway_schema_migrations`.
 */
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const postgresMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'keys, image usage, stored responses',
    sql: `
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        name text NOT NULL,
        tier text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        demo boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE TABLE image_usage (
        key_id text NOT NULL,
        day date NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (key_id, day)
      );
      -- json, not jsonb: a response reads back with its keys in the order it was answered.
      CREATE TABLE responses (
        id text PRIMARY KEY,
        key_id text NOT NULL,
        created_at timestamptz NOT NULL,
        response json NOT NULL,
        items json NOT NULL
      );
      CREATE INDEX responses_created_at ON responses (created_at);`,
  },
  {
    version: 2,
    name: 'dashboard sessions',
    sql: `
      CREATE TABLE sessions (
        hash text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_expires_at ON sessions (expires_at);`,
  },
];

/** The advisory lock the instances take turns on: any number, the same in every instance ('gate' in ASCII). */
const MIGRATION_LOCK = 0x67617465;

/**
 * Brings the database to the last schema version (or to `upTo`), and returns the versions it applied.
 * Refuses a database whose schema is newer than this gateway knows.
 *
 * @example
 * const applied = await migratePostgres(pool); // [1, 2] on an empty database, [] afterwards
 */
export async function migratePostgres(pool: pg.Pool, upTo = postgresMigrations.at(-1)!.version): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS gateway_schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM gateway_schema_migrations');
      const done = new Set(rows.map((row) => row.version));
      const last = postgresMigrations.at(-1)!.version;
      const newest = Math.max(0, ...done);
      if (newest > last) throw new Error(`The database has schema version ${newest}, newer than this gateway's ${last}; run a newer gateway.`);
      const applied: number[] = [];
      for (const migration of postgresMigrations) {
        if (done.has(migration.version) || migration.version > upTo) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO gateway_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
