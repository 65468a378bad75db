/**
 * The tier rule, against the implementation's own listing: for each key given, a model at or below its
 * tier is served and a model above it answers 403. Models are tried on an endpoint that spends no image
 * quota when one exists.
 */
import { tierRank, type Operation } from '../../contract/index.ts';
import { checkedOperations } from '../scope.ts';
import { allows, type CatalogueModel } from '../catalogue.ts';
import type { Check, RunContext, Tester } from '../check.ts';
import { takesModel, withModel } from '../examples.ts';
import { keyHeaders } from '../keys.ts';
import { imageOperations } from './images.ts';
import { aKey, errorMessage, expectSuccess, SPEC } from '../expectations.ts';
import { validRequest } from '../requests.ts';

const RULE = `${SPEC.auth}: a valid key without permission for the resource (tier) → 403`;

export function tierChecks(ctx: RunContext): Check[] {
  return ctx.keys.keys.flatMap(({ tier, key }) => [
    {
      id: `general/tiers/${tier}-allowed`,
      operationId: 'tiers',
      family: 'tiers' as const,
      title: `${aKey(tier)} with a model of its tier or below → served`,
      stateful: true,
      async run(t: Tester) {
        const model = choose(t.ctx.catalogue.models.filter((m) => allows(tier, m)), 'highest');
        if (!model) return t.skip(`the listing has no model ${aKey(tier)} may use`);
        const { op, ex } = await attempt(t, model, key);
        expectSuccess(t, op, ex, RULE, `model '${model.id}' (tier ${model.tier})`);
      },
    },
    {
      id: `general/tiers/${tier}-refused`,
      operationId: 'tiers',
      family: 'tiers' as const,
      title: `${aKey(tier)} with a model above its tier → 403 {error}`,
      stateful: true,
      async run(t: Tester) {
        const model = choose(t.ctx.catalogue.models.filter((m) => !allows(tier, m)), 'lowest');
        if (!model) return t.skip(`no model in the listing is above the ${tier} tier`);
        const { op, ex } = await attempt(t, model, key);
        if (!t.status(ex, 403, RULE, `model '${model.id}' (tier ${model.tier})`)) return;
        t.shape(op, ex);
        // D3: the message names the tier needed.
        if (t.ctx.profile.reference) {
          const message = errorMessage(ex) ?? '';
          t.expect(message.includes(model.tier), `the 403 message ${JSON.stringify(message)} does not name the tier '${model.tier}'`, 'D3', ex);
        }
      },
    },
  ]);
}

/** The model closest to the key's tier (from above or below), preferring one that costs no image quota. */
function choose(models: CatalogueModel[], end: 'highest' | 'lowest'): CatalogueModel | undefined {
  const image = new Set(imageOperations().map((op) => op.path));
  const cheap = (m: CatalogueModel) => (m.endpoints.some((e) => !image.has(e) && operationFor(e)) ? 0 : 1);
  return [...models]
    .filter((m) => m.endpoints.some((e) => operationFor(e)))
    .sort((a, b) => cheap(a) - cheap(b) || (end === 'highest' ? tierRank(b.tier) - tierRank(a.tier) : tierRank(a.tier) - tierRank(b.tier)))[0];
}

function operationFor(path: string): Operation | undefined {
  return checkedOperations.find((op) => op.path === path && takesModel(op));
}

async function attempt(t: Tester, model: CatalogueModel, key: string) {
  const image = new Set(imageOperations().map((op) => op.path));
  const path = model.endpoints.find((e) => !image.has(e) && operationFor(e)) ?? model.endpoints.find((e) => operationFor(e))!;
  const op = operationFor(path)!;
  const req = withModel(op, validRequest(t, op), model.id);
  const ex = await t.send({ ...req, headers: { ...req.headers, ...keyHeaders(key) } });
  return { op, ex };
}
