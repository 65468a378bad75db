/**
 * A stored key record as the dashboard shows it (the contract's `ApiKey`): the record's fields, only the
 * key's prefix, and today's image usage against the tier's quota.
 */
import type { components } from '../../../generated/admin/schema.d.ts';
import { dailyImageQuota, tierRank } from '../../contract/index.ts';
import type { ApiKeyRecord, Store } from '../domain/store/index.ts';

export type ApiKeyView = components['schemas']['ApiKey'];

/**
 * @example
 *   await keyView(record, store, '2025-06-01');
 *   // { id: 'key_…', name: 'Storefront staging', tier: 'starter', prefix: 'sk-7Hq2xVb', …,
 *   //   imageUsage: { day: '2025-06-01', used: 2, quota: 3 } }
 */
export async function keyView(record: ApiKeyRecord, store: Store, day: string): Promise<ApiKeyView> {
  return {
    id: record.id,
    name: record.name,
    tier: record.tier,
    prefix: record.prefix,
    demo: record.demo,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
    imageUsage: { day, used: await store.imagesUsed(record.id, day), quota: dailyImageQuota(record.tier) },
  };
}

/** The keys people made, newest first, then the demo keys in tier order (they are fixtures, not news). */
export function newestFirst(a: ApiKeyRecord, b: ApiKeyRecord): number {
  if (a.demo !== b.demo) return a.demo ? 1 : -1;
  if (a.demo) return tierRank(a.tier) - tierRank(b.tier);
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}
