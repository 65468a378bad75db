/**
 * The in-memory store (`GATEWAY_STORE=memory`): everything is lost when the process ends. Each method does
 * its whole work before its promise settles, with no await inside, so no two calls interleave.
 */
import type { ApiKeyRecord, NewApiKey, Reservation, Store, StoredResponse } from './types.ts';

/**
 * Characters of stored Responses (their JSON) the memory store keeps: beyond them the oldest are forgotten
 * before their 30 days, so that a long-running server under Responses traffic does not grow without bound.
 * At most 64 MB (two bytes a character), some 15,000 responses of a short answer with its conversation.
 */
export const MEMORY_RESPONSE_CHARACTERS = 32 * 1024 * 1024;

export function createMemoryStore(): Store {
  const keys = new Map<string, ApiKeyRecord & { hash: string }>();
  const byHash = new Map<string, string>();
  const usage = new Map<string, number>();
  const usageKey = (keyId: string, day: string) => `${keyId}\u0000${day}`;
  /**
   * As JSON, as the other stores keep them (a caller changing its object later changes nothing here, and
   * serialising costs half of a structured clone); in the order they were saved, which is the order of their
   * creation: expiry, and forgetting the oldest beyond the bound, stop at the first kept.
   */
  const responses = new Map<string, { keyId: string; createdAt: string; json: string }>();
  let responseCharacters = 0;
  const forgetResponse = (id: string) => {
    responseCharacters -= responses.get(id)?.json.length ?? 0;
    responses.delete(id);
  };
  /** Session hash → expiry (ISO 8601), in the order they were opened: the oldest first. */
  const sessions = new Map<string, string>();
  // A copy without the hash, field by field: every authenticated request looks its key up, and a rest
  // pattern plus a spread copies through V8's slow path.
  const strip = (r: ApiKeyRecord & { hash: string }): ApiKeyRecord => ({
    id: r.id,
    name: r.name,
    tier: r.tier,
    prefix: r.prefix,
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
    revokedAt: r.revokedAt,
    demo: r.demo,
  });

  return {
    async createKey(key: NewApiKey) {
      const existing = byHash.get(key.hash);
      if (existing) return strip(keys.get(existing)!);
      const record = {
        id: key.id,
        name: key.name,
        tier: key.tier,
        prefix: key.prefix,
        hash: key.hash,
        demo: key.demo ?? false,
        createdAt: key.createdAt ?? new Date().toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
      keys.set(key.id, record);
      byHash.set(key.hash, key.id);
      return strip(record);
    },
    async findKeyByHash(hash) {
      const id = byHash.get(hash);
      return id === undefined ? undefined : strip(keys.get(id)!);
    },
    async findKey(id) {
      const record = keys.get(id);
      return record && strip(record);
    },
    async listKeys() {
      // Oldest first, as the other stores list them.
      return [...keys.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(strip);
    },
    async revokeKey(id, at = new Date()) {
      const record = keys.get(id);
      if (!record) return false;
      record.revokedAt ??= at.toISOString();
      return true;
    },
    async touchKey(id, at) {
      const record = keys.get(id);
      if (record) record.lastUsedAt = at.toISOString();
    },
    async imagesUsed(keyId, day) {
      return usage.get(usageKey(keyId, day)) ?? 0;
    },
    async reserveImages(keyId, day, n, limit): Promise<Reservation> {
      const k = usageKey(keyId, day);
      const used = usage.get(k) ?? 0;
      if (used + n > limit) return { granted: false, used };
      usage.set(k, used + n);
      return { granted: true, used: used + n };
    },
    async releaseImages(keyId, day, n) {
      const k = usageKey(keyId, day);
      usage.set(k, Math.max(0, (usage.get(k) ?? 0) - n));
    },
    async saveResponse(record, expireBefore) {
      const json = JSON.stringify(record);
      forgetResponse(record.id);
      for (const [id, kept] of responses) {
        if (kept.createdAt >= expireBefore && responseCharacters + json.length <= MEMORY_RESPONSE_CHARACTERS) break;
        forgetResponse(id);
      }
      responses.set(record.id, { keyId: record.keyId, createdAt: record.createdAt, json });
      responseCharacters += json.length;
    },
    async findResponse(id, keyId) {
      const kept = responses.get(id);
      return kept && kept.keyId === keyId ? (JSON.parse(kept.json) as StoredResponse) : undefined;
    },
    async deleteResponse(id, keyId) {
      if (responses.get(id)?.keyId !== keyId) return false;
      forgetResponse(id);
      return true;
    },
    async saveSession(session, now, max) {
      for (const [hash, expiresAt] of sessions) if (expiresAt <= now) sessions.delete(hash);
      for (const hash of sessions.keys()) {
        if (sessions.size < max) break;
        sessions.delete(hash);
      }
      sessions.set(session.hash, session.expiresAt);
    },
    async sessionExpiry(hash) {
      return sessions.get(hash);
    },
    async deleteSession(hash) {
      sessions.delete(hash);
    },
    async close() {},
  };
}
