/**
 * The models to check with, read at the start of a run: the implementation's own listing, in the gateway's
 * shape (`{"models": [{id, endpoints, tier, …}]}`) or OpenAI's and Anthropic's (`{"data": [{id, …}]}`), or
 * the models given with `--model`. Checks pick their models from it (the tier rule, the image model rule)
 * instead of assuming the reference implementation's catalogue. A model whose listing says nothing of its
 * endpoints or tier may be used for any operation, by any key.
 */
import { tierRank, type Tier } from '../contract/index.ts';

export interface CatalogueModel {
  id: string;
  category?: string;
  /** The paths it offers, when the listing says. */
  endpoints?: string[];
  /** The lowest tier that may use it, when the listing says. */
  tier?: Tier;
}

export class Catalogue {
  /**
   * @param imagePaths the paths that make images (their success is an `ImageResult`): the image model is the
   * model that offers them.
   * @param given the models passed with `--model`: used first, for every operation.
   */
  constructor(
    readonly models: readonly CatalogueModel[],
    private readonly imagePaths: readonly string[] = [],
    readonly given: readonly string[] = [],
  ) {}

  /**
   * Reads a listing body in either shape; entries without an `id` are left out, and so are the endpoints and
   * tier of an entry when they are not what the gateway's listing holds.
   */
  static fromListing(body: unknown, imagePaths: readonly string[] = [], given: readonly string[] = []): Catalogue {
    const json = body as { models?: unknown; data?: unknown } | undefined;
    const entries = (Array.isArray(json?.models) ? json.models : Array.isArray(json?.data) ? json.data : []) as unknown[];
    const models = entries.flatMap((m): CatalogueModel[] => {
      const entry = m as { id?: unknown; category?: unknown; endpoints?: unknown; tier?: unknown } | null;
      if (!entry || typeof entry.id !== 'string') return [];
      const endpoints = Array.isArray(entry.endpoints) && entry.endpoints.every((e) => typeof e === 'string') ? (entry.endpoints as string[]) : undefined;
      const tier = typeof entry.tier === 'string' && tierRank(entry.tier as Tier) >= 0 ? (entry.tier as Tier) : undefined;
      return [{ id: entry.id, ...(typeof entry.category === 'string' ? { category: entry.category } : {}), ...(endpoints ? { endpoints } : {}), ...(tier ? { tier } : {}) }];
    });
    return new Catalogue(models, imagePaths, given);
  }

  /** Whether the listing says which endpoints its models offer and which tier each needs. */
  get described(): boolean {
    return this.models.length > 0 && this.models.every((m) => m.endpoints !== undefined && m.tier !== undefined);
  }

  has(id: string): boolean {
    return this.models.some((m) => m.id === id);
  }

  get(id: string): CatalogueModel | undefined {
    return this.models.find((m) => m.id === id);
  }

  /** Models whose `endpoints` list the path (or do not say). */
  offering(path: string): CatalogueModel[] {
    return this.models.filter((m) => m.endpoints === undefined || m.endpoints.includes(path));
  }

  /**
   * The image model as the contract defines it: the model whose `endpoints` include the operations that
   * answer with images (the specification's `image-gen`), whatever its name or label.
   */
  imageModel(): CatalogueModel | undefined {
    return this.models.find((m) => m.endpoints?.some((e) => this.imagePaths.includes(e)));
  }

  /**
   * A model for `path` that a key of `tier` may use: the first given with `--model` that offers it; else `preferred` when it
   * qualifies; else the one of the highest tier not above the key's (closest to the key's limit); else
   * undefined. A key without a tier takes the lowest tier's models, the likeliest to be allowed.
   */
  pick(path: string, tier: Tier | undefined, preferred?: string): CatalogueModel | undefined {
    const chosen = this.given.map((id) => this.get(id) ?? { id }).find((m) => m.endpoints === undefined || m.endpoints.includes(path));
    if (chosen) return chosen;
    const usable = this.offering(path).filter((m) => tier === undefined || allows(tier, m));
    const wanted = usable.find((m) => m.id === preferred);
    if (wanted) return wanted;
    const rank = (m: CatalogueModel) => (m.tier === undefined ? -1 : tierRank(m.tier));
    return [...usable].sort((a, b) => (tier === undefined ? rank(a) - rank(b) : rank(b) - rank(a)))[0];
  }
}

/** Whether a key of `tier` may use the model: the model's tier is the key's or lower (or the listing does not say). */
export function allows(tier: Tier, model: CatalogueModel): boolean {
  if (model.tier === undefined) return true;
  const rank = tierRank(model.tier);
  return rank >= 0 && rank <= tierRank(tier);
}
