/**
 * The tier rule, against the implementation's own listing: for each key given, a model at or below its
 * tier is served and a model above it answers 403. Models are tried on an endpoint that spends no image
 * quota when one exists.
 */
import { tierRank, type Contract, type Operation } from '../../contract/index.ts';
import { imageOperations } from '../scope.ts';
import { allows, type CatalogueModel } from '../catalogue.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import { takesModel, withModel } from '../examples.ts';
import { aKey, errorMessage, expectSuccess } from '../expectations.ts';
import { validRequest } from '../requests.ts';

const RULE = 'tiers: a valid key without permission for the resource (tier) → 403';

/** For each key given with its tier, when the listing says each model's tier and endpoints. */
export function tierChecks(ctx: RunContext): Check[] {
  if (!ctx.catalogue.described) return [];
  return ctx.keys.tiered().flatMap(({ tier, key }) => [
    ...stated(ctx, 'tiers', {
      id: `general/tiers/${tier}-allowed`,
      operationId: 'tiers',
      family: 'tiers',
      title: `${aKey(tier)} with a model of its tier or below → served`,
      stateful: true,
      async run(t: Tester) {
        const model = choose(t.ctx.contract, t.ctx.catalogue.models.filter((m) => allows(tier, m)), 'highest');
        if (!model) return t.skip(`the listing has no model ${aKey(tier)} may use`);
        const { op, ex } = await attempt(t, model, key);
        expectSuccess(t, op, ex, RULE, `model '${model.id}' (tier ${model.tier})`);
      },
    }),
    ...stated(ctx, 'tiers', {
      id: `general/tiers/${tier}-refused`,
      operationId: 'tiers',
      family: 'tiers',
      title: `${aKey(tier)} with a model above its tier → 403 {error}`,
      stateful: true,
      async run(t: Tester) {
        const model = choose(t.ctx.contract, t.ctx.catalogue.models.filter((m) => !allows(tier, m)), 'lowest');
        if (!model) return t.skip(`no model in the listing is above the ${tier} tier`);
        const { op, ex } = await attempt(t, model, key);
        if (!t.status(ex, 403, RULE, `model '${model.id}' (tier ${model.tier})`)) return;
        t.shape(op, ex);
        // D3: the message names the tier needed.
        if (t.ctx.profile.reference) {
          const message = errorMessage(ex) ?? '';
          t.expect(message.includes(model.tier!), `the 403 message ${JSON.stringify(message)} does not name the tier '${model.tier}'`, 'D3', ex);
        }
      },
    }),
  ]);
}

/** The model closest to the key's tier (from above or below), preferring one that costs no image quota. */
function choose(contract: Contract, models: CatalogueModel[], end: 'highest' | 'lowest'): CatalogueModel | undefined {
  const image = new Set(imageOperations(contract).map((op) => op.path));
  const endpoints = (m: CatalogueModel) => m.endpoints ?? [];
  const cheap = (m: CatalogueModel) => (endpoints(m).some((e) => !image.has(e) && operationFor(contract, e)) ? 0 : 1);
  const rank = (m: CatalogueModel) => tierRank(m.tier!);
  return [...models]
    .filter((m) => endpoints(m).some((e) => operationFor(contract, e)))
    .sort((a, b) => cheap(a) - cheap(b) || (end === 'highest' ? rank(b) - rank(a) : rank(a) - rank(b)))[0];
}

function operationFor(contract: Contract, path: string): Operation | undefined {
  return contract.operations.find((op) => op.path === path && takesModel(contract, op));
}

async function attempt(t: Tester, model: CatalogueModel, key: string) {
  const contract = t.ctx.contract;
  const image = new Set(imageOperations(contract).map((op) => op.path));
  const endpoints = model.endpoints ?? [];
  const path = endpoints.find((e) => !image.has(e) && operationFor(contract, e)) ?? endpoints.find((e) => operationFor(contract, e))!;
  const op = operationFor(contract, path)!;
  const req = withModel(contract, op, validRequest(t, op), model.id);
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => !t.ctx.credentials.isCredential(k)));
  const ex = await t.send({ ...req, headers: { ...headers, ...t.ctx.credentials.headers(key, op) } });
  return { op, ex };
}
