/**
 * The keys the suite was given, one per tier, and how the contract says to send them. Tier behaviour
 * cannot be tested without knowing a key's tier, so keys are always given with their tier.
 */
import { contract, tierRank, tiers, type KeyTier } from '../contract/index.ts';

export interface TierKey {
  tier: KeyTier;
  key: string;
}

export class KeyRing {
  readonly keys: readonly TierKey[];

  constructor(byTier: Partial<Record<KeyTier, string>>) {
    this.keys = (Object.entries(byTier) as Array<[KeyTier, string]>)
      .filter(([, key]) => key)
      .map(([tier, key]) => ({ tier, key }))
      .sort((a, b) => tierRank(a.tier) - tierRank(b.tier));
  }

  get size(): number {
    return this.keys.length;
  }

  /** The key of the highest tier given: it may use every model the others may. */
  best(): TierKey | undefined {
    return this.keys.at(-1);
  }

  tierOf(key: string): KeyTier | undefined {
    return this.keys.find((k) => k.key === key)?.tier;
  }
}

/** Tiers a key can be issued for, lowest first (every tier but `free`). */
export const keyTiers = tiers.filter((t): t is KeyTier => t !== 'free');

// The scheme every operation accepts by default (the root `security`), not the dashboard's admin token.
const spec = contract.spec;
const defaultScheme = Object.keys(spec.security?.[0] ?? {})[0];
const apiKeyScheme = defaultScheme ? spec.components.securitySchemes[defaultScheme] : undefined;
/** The header the contract names for the API key (`x-api-key`). */
export const apiKeyHeader = (apiKeyScheme?.name ?? 'x-api-key').toLowerCase();

/** The name of the contract's Bearer scheme, when it has one. */
export const bearerSchemeName = Object.entries(spec.components.securitySchemes).find(
  ([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer',
)?.[0];

/** Headers that send a key the ordinary way. */
export function keyHeaders(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { [apiKeyHeader]: key };
}
