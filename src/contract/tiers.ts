/**
 * Tiers and the daily image quota, read from the `Tier` schema of the contract (its `enum` gives the order,
 * its `x-daily-image-quota` the quota table).
 */
import type { components } from '../../generated/schema.d.ts';
import { contract } from './gateway.ts';

export type Tier = components['schemas']['Tier'];
/** Tiers a key can have: every tier except `free`, which only models carry. */
export type KeyTier = Exclude<Tier, 'free'>;

const tierSchema = contract.spec.components.schemas.Tier as { enum: Tier[]; 'x-daily-image-quota': Record<KeyTier, number> };

/** All tiers, lowest first. */
export const tiers: readonly Tier[] = tierSchema.enum;

/** Position of a tier in the order `free < starter < economy < pro < ultimate`. */
export function tierRank(tier: Tier): number {
  return tiers.indexOf(tier);
}

/** Images a key of this tier may make per UTC day. */
export function dailyImageQuota(tier: KeyTier): number {
  return tierSchema['x-daily-image-quota'][tier];
}
