/**
 * The SQLite store (default): one file, so keys and usage survive a restart. better-sqlite3 is synchronous
 * (each method does its work at once and returns a settled promise); the quota update is one conditional
 * UPDATE inside an IMMEDIATE transaction, so it stays exact even when several processes share the file.
 * The schema is versioned (`PRAGMA user_version`) and brought up to date when the store opens.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { ApiKeyRecord, NewApiKey, Reservation, Store, StoredResponse } from './types.ts';

interface KeyRow {
  id: string;
  name: string;
  tier: ApiKeyRecord['tier'];
  prefix: string;
  demo: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * The schema's versions, oldest first; a file is brought from its `user_version` to the last. Version 1 is
 * what files made before versioning hold (user_version 0), hence its IF NOT EXISTS.
 */
export const sqliteMigrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'keys, image usage, stored responses',
    sql: `
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        tier TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        demo INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE IF NOT EXISTS image_usage (
        key_id TEXT NOT NULL,
        day TEXT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (key_id, day)
      );
      CREATE TABLE IF NOT EXISTS responses (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        response TEXT NOT NULL,
        items TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS responses_created_at ON responses (created_at);`,
  },
  {
    version: 2,
    name: 'dashboard sessions',
    sql: `
      CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX sessions_expires_at ON sessions (expires_at);`,
  },
];

/**
 * Brings the file's schema to the last version, in one IMMEDIATE transaction (a second process opening the
 * file at the same moment waits, then finds nothing to do). Returns the versions applied.
 */
export function migrateSqlite(db: Database.Database, upTo = sqliteMigrations.at(-1)!.version): number[] {
  return db
    .transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number;
      const last = sqliteMigrations.at(-1)!.version;
      if (current > last) throw new Error(`The SQLite file has schema version ${current}, newer than this gateway's ${last}; run a newer gateway.`);
      const applied: number[] = [];
      for (const migration of sqliteMigrations) {
        if (migration.version <= current || migration.version > upTo) continue;
        db.exec(migration.sql);
        applied.push(migration.version);
      }
      if (applied.length > 0) db.pragma(`user_version = ${applied.at(-1)}`);
      return applied;
    })
    .immediate();
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    prefix: row.prefix,
    demo: row.demo === 1,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Opens (or creates) the file, as the store and `npm run migrate` use it; its schema is not touched. */
export function openSqliteFile(path: string): Database.Database {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Created readable and writable by its owner only (it holds key hashes and usage); SQLite gives its -wal
    // and -shm files the same permissions. An existing file keeps the permissions its operator chose.
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

export function createSqliteStore(path: string): Store {
  const db = openSqliteFile(path);
  try {
    migrateSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }

  const columns = 'id, name, tier, prefix, demo, created_at, last_used_at, revoked_at';
  const insertKey = db.prepare(
    'INSERT OR IGNORE INTO api_keys (id, name, tier, prefix, hash, demo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byHash = db.prepare<[string], KeyRow>(`SELECT ${columns} FROM api_keys WHERE hash = ?`);
  const byId = db.prepare<[string], KeyRow>(`SELECT ${columns} FROM api_keys WHERE id = ?`);
  const all = db.prepare<[], KeyRow>(`SELECT ${columns} FROM api_keys ORDER BY created_at, id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const used = db.prepare<[string, string], { used: number }>('SELECT used FROM image_usage WHERE key_id = ? AND day = ?');
  const ensureUsage = db.prepare('INSERT OR IGNORE INTO image_usage (key_id, day, used) VALUES (?, ?, 0)');
  const add = db.prepare('UPDATE image_usage SET used = used + ? WHERE key_id = ? AND day = ? AND used + ? <= ?');
  const release = db.prepare('UPDATE image_usage SET used = MAX(0, used - ?) WHERE key_id = ? AND day = ?');

  const reserve = db.transaction((keyId: string, day: string, n: number, limit: number): Reservation => {
    ensureUsage.run(keyId, day);
    const granted = add.run(n, keyId, day, n, limit).changes === 1;
    return { granted, used: used.get(keyId, day)?.used ?? 0 };
  });

  const insertResponse = db.prepare('INSERT OR REPLACE INTO responses (id, key_id, created_at, response, items) VALUES (?, ?, ?, ?, ?)');
  const expireResponses = db.prepare('DELETE FROM responses WHERE created_at < ?');
  const responseById = db.prepare<[string, string], { id: string; key_id: string; created_at: string; response: string; items: string }>(
    'SELECT id, key_id, created_at, response, items FROM responses WHERE id = ? AND key_id = ?',
  );
  const removeResponse = db.prepare('DELETE FROM responses WHERE id = ? AND key_id = ?');
  const saveResponse = db.transaction((r: StoredResponse, expireBefore: string) => {
    expireResponses.run(expireBefore);
    insertResponse.run(r.id, r.keyId, r.createdAt, JSON.stringify(r.response), JSON.stringify(r.items));
  });

  const insertSession = db.prepare('INSERT OR REPLACE INTO sessions (hash, expires_at) VALUES (?, ?)');
  const expireSessions = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  const trimSessions = db.prepare('DELETE FROM sessions WHERE hash IN (SELECT hash FROM sessions ORDER BY expires_at DESC LIMIT -1 OFFSET ?)');
  const sessionById = db.prepare<[string], { expires_at: string }>('SELECT expires_at FROM sessions WHERE hash = ?');
  const removeSession = db.prepare('DELETE FROM sessions WHERE hash = ?');
  const saveSession = db.transaction((hash: string, expiresAt: string, now: string, max: number) => {
    expireSessions.run(now);
    trimSessions.run(max - 1);
    insertSession.run(hash, expiresAt);
  });

  return {
    async createKey(key: NewApiKey) {
      insertKey.run(key.id, key.name, key.tier, key.prefix, key.hash, key.demo ? 1 : 0, key.createdAt ?? new Date().toISOString());
      return toRecord(byHash.get(key.hash)!);
    },
    async findKeyByHash(hash) {
      const row = byHash.get(hash);
      return row ? toRecord(row) : undefined;
    },
    async findKey(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : undefined;
    },
    async listKeys() {
      return all.all().map(toRecord);
    },
    async revokeKey(id, at = new Date()) {
      return revoke.run(at.toISOString(), id).changes === 1;
    },
    async touchKey(id, at) {
      touch.run(at.toISOString(), id);
    },
    async imagesUsed(keyId, day) {
      return used.get(keyId, day)?.used ?? 0;
    },
    async reserveImages(keyId, day, n, limit) {
      return reserve.immediate(keyId, day, n, limit);
    },
    async releaseImages(keyId, day, n) {
      release.run(n, keyId, day);
    },
    async saveResponse(record, expireBefore) {
      saveResponse.immediate(record, expireBefore);
    },
    async findResponse(id, keyId) {
      const row = responseById.get(id, keyId);
      return row && { id: row.id, keyId: row.key_id, createdAt: row.created_at, response: JSON.parse(row.response), items: JSON.parse(row.items) };
    },
    async deleteResponse(id, keyId) {
      return removeResponse.run(id, keyId).changes === 1;
    },
    async saveSession(session, now, max) {
      saveSession.immediate(session.hash, session.expiresAt, now, max);
    },
    async sessionExpiry(hash) {
      return sessionById.get(hash)?.expires_at;
    },
    async deleteSession(hash) {
      removeSession.run(hash);
    },
    async close() {
      db.close();
    },
  };
}
