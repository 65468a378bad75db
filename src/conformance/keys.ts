/**
 * The keys the suite was given, and how the description says to send them. A key may come with its tier
 * (`--key pro=sk-…`), which tier checks need; a vendor protocol has no tiers, and its key comes alone
 * (`--key sk-…`).
 */
import { tierRank, tiers, type Contract, type KeyTier, type Operation } from '../contract/index.ts';

export interface TierKey {
  /** Undefined for a key given without one. */
  tier?: KeyTier;
  key: string;
}

export class KeyRing {
  readonly keys: readonly TierKey[];

  /** Keys by tier, and keys given without a tier (which rank below every tier: nothing is known of them). */
  constructor(byTier: Partial<Record<KeyTier, string>>, untiered: readonly string[] = []) {
    this.keys = [
      ...untiered.filter(Boolean).map((key) => ({ key })),
      ...(Object.entries(byTier) as Array<[KeyTier, string]>)
        .filter(([, key]) => key)
        .map(([tier, key]) => ({ tier, key }))
        .sort((a, b) => tierRank(a.tier) - tierRank(b.tier)),
    ];
  }

  get size(): number {
    return this.keys.length;
  }

  /** The key of the highest tier given (it may use every model the others may), else the first key given. */
  best(): TierKey | undefined {
    return this.keys.at(-1);
  }

  /** The keys given with a tier. */
  tiered(): Array<Required<TierKey>> {
    return this.keys.filter((k): k is Required<TierKey> => k.tier !== undefined);
  }

  tierOf(key: string): KeyTier | undefined {
    return this.keys.find((k) => k.key === key)?.tier;
  }

  has(key: string): boolean {
    return this.keys.some((k) => k.key === key);
  }
}

/** Tiers a key can be issued for, lowest first (every tier but `free`). */
export const keyTiers = tiers.filter((t): t is KeyTier => t !== 'free');

/** How a description takes its key: the header of its API-key scheme, and its Bearer scheme, when it has them. */
export class Credentials {
  /** The header of the description's API-key scheme (`x-api-key`), lower case. */
  readonly apiKeyHeader: string | undefined;
  /** The name of its Bearer scheme in `components.securitySchemes`. */
  readonly bearerScheme: string | undefined;
  readonly #schemes: Contract['spec']['components']['securitySchemes'];

  constructor(contract: Contract) {
    this.#schemes = contract.spec.components.securitySchemes ?? {};
    const apiKey = Object.values(this.#schemes).find((s) => s.type === 'apiKey' && s.in === 'header');
    this.apiKeyHeader = apiKey?.name?.toLowerCase();
    this.bearerScheme = Object.entries(this.#schemes).find(([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer')?.[0];
  }

  /** Whether an operation's first way to send the key is Bearer (OpenAI's only way). */
  bearerFirst(op: Operation): boolean {
    const first = op.security.find((alternative) => alternative.length > 0)?.[0];
    return first !== undefined && first === this.bearerScheme;
  }

  /**
   * Headers that send a key the operation's first way (`x-api-key: sk-…`, or `Authorization: Bearer sk-…`).
   *
   * @example
   * new Credentials(loadContract('openai')).headers('sk-…', op); // { authorization: 'Bearer sk-…' }
   */
  headers(key: string | undefined, op?: Operation): Record<string, string> {
    if (key === undefined) return {};
    const bearer = op ? this.bearerFirst(op) : !this.apiKeyHeader;
    if (bearer || !this.apiKeyHeader) return { authorization: `Bearer ${key}` };
    return { [this.apiKeyHeader]: key };
  }

  /** Whether a header carries a key (the API-key header, or Authorization). */
  isCredential(header: string): boolean {
    const name = header.toLowerCase();
    return name === 'authorization' || name === this.apiKeyHeader;
  }

  /** The key a request carries, in either way. */
  keyOf(headers: Record<string, string> | undefined): string | undefined {
    const lower = Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return (this.apiKeyHeader && lower[this.apiKeyHeader]) || lower.authorization?.replace(/^Bearer\s+/i, '') || undefined;
  }
}
