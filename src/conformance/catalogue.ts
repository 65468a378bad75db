/**
 * The implementation's own model listing, read at the start of a run. Checks pick their models from it
 * (the tier rule, the image model rule) instead of assuming the reference implementation's catalogue.
 */
import { tierRank, type Tier } from '../contract/index.ts';
import { checkedOperations, isImageOperation } from './scope.ts';

/** The paths that make images (their success is an `ImageResult`): the image model is the model that offers them. */
const imagePaths = checkedOperations.filter(isImageOperation).map((op) => op.path);

export interface CatalogueModel {
  id: string;
  category: string;
  endpoints: string[];
  tier: Tier;
}

export class Catalogue {
  constructor(readonly models: readonly CatalogueModel[]) {}

  /** Reads the `models` array of a listing body; entries without the fields the checks need are left out. */
  static fromListing(body: unknown): Catalogue {
    const models = ((body as { models?: unknown })?.models ?? []) as unknown[];
    return new Catalogue(
      models.filter(
        (m): m is CatalogueModel =>
          !!m && typeof (m as CatalogueModel).id === 'string' && Array.isArray((m as CatalogueModel).endpoints) &&
          typeof (m as CatalogueModel).tier === 'string',
      ),
    );
  }

  has(id: string): boolean {
    return this.models.some((m) => m.id === id);
  }

  get(id: string): CatalogueModel | undefined {
    return this.models.find((m) => m.id === id);
  }

  /** Models whose `endpoints` list the path. */
  offering(path: string): CatalogueModel[] {
    return this.models.filter((m) => m.endpoints.includes(path));
  }

  /**
   * The image model as the contract defines it: the model whose `endpoints` include the operations that
   * answer with images (the specification's `image-gen`), whatever its name or label.
   */
  imageModel(): CatalogueModel | undefined {
    return this.models.find((m) => m.endpoints.some((e) => imagePaths.includes(e)));
  }

  /**
   * A model for `path` that a key of `tier` may use: `preferred` when it qualifies, else the one of the
   * highest tier not above the key's (closest to the key's limit), else undefined.
   */
  pick(path: string, tier: Tier, preferred?: string): CatalogueModel | undefined {
    const usable = this.offering(path).filter((m) => allows(tier, m));
    const wanted = usable.find((m) => m.id === preferred);
    if (wanted) return wanted;
    return [...usable].sort((a, b) => tierRank(b.tier) - tierRank(a.tier))[0];
  }
}

/** Whether a key of `tier` may use the model: the model's tier is the key's or lower. */
export function allows(tier: Tier, model: CatalogueModel): boolean {
  const rank = tierRank(model.tier);
  return rank >= 0 && rank <= tierRank(tier);
}
