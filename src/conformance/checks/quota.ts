/**
 * The daily image quota table, per key tier given (destructive: it spends what is left of the key's day).
 * What remains is the server's own figure when it gives one (`x-ratelimit-remaining-images`, whose
 * `x-ratelimit-limit-images` must then be the tier's quota), else the table less what the suite was given
 * this run: it spends exactly that, then expects 429 `Daily quota exceeded.` A second run the same day
 * therefore checks the same rule on what is left, instead of taking the morning's use for a bug. In the full
 * profile also: a request for more than remains fails whole and charges nothing (D5), edits count like
 * generations (D7), and 429 carries `Retry-After` and `x-should-retry: false` (D6).
 */
import { dailyImageQuota, type Contract, type Operation } from '../../contract/index.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import { propertySchema, resolve } from '../schema.ts';
import { isImageResult } from '../rules/image-answers.ts';
import { imageOperations } from '../scope.ts';
import { aKey } from '../expectations.ts';
import { validRequest, withBody } from '../requests.ts';

const RULE = 'quota: daily image count per tier';
/** The header in which an implementation may say a key's daily quota (a reference decision). */
const LIMIT = 'x-ratelimit-limit-images';

export function quotaChecks(ctx: RunContext): Check[] {
  const op = spendingOperation(ctx.contract);
  if (!op) return [];
  return ctx.keys.tiered().flatMap(({ tier, key }) => stated(ctx, 'quota', {
    id: `${op.operationId}/quota/${tier}`,
    operationId: op.operationId,
    family: 'quota',
    title: `${aKey(tier)} gets exactly ${dailyImageQuota(tier)} images a day, then 429`,
    stateful: true,
    destructive: true,
    async run(t: Tester) {
      const quota = dailyImageQuota(tier);
      const base = validRequest(t, op, undefined, { key, tier });
      const request = (n: number) => withBody(base, { n });
      const max = Number(resolve(t.ctx.contract, propertySchema(t.ctx.contract, op.raw.requestBody!.content['application/json']!.schema, 'n')).maximum ?? 10);
      // The server's figure, when it gives one: learnt from an answer for one image (or the 429 that refuses it).
      const probe = t.ctx.ledger.knows(key) ? undefined : await t.send(request(1));
      const told = probe?.response?.headers[LIMIT];
      if (told !== undefined) t.expect(Number(told) === quota, `${LIMIT} says ${told} for ${aKey(tier)}; the table says ${quota}`, RULE, probe);
      if (probe && probe.response?.status !== 200 && probe.response?.status !== 429) {
        t.expect(false, `asking for 1 image gave status ${probe.response?.status}`, RULE, probe);
        return;
      }
      // Full profile: edits count too (D7). Core without the server's figure: an implementation may leave
      // edits out, so the remainder lies between the two counts.
      const known = t.ctx.ledger.knows(key);
      const generated = t.ctx.ledger.of(key, (p) => p === op.path);
      const all = t.ctx.ledger.of(key);
      let remaining = t.ctx.ledger.left(key, quota);
      const slack = known || t.ctx.profile.reference ? 0 : all - generated;
      const spend = async (n: number) => {
        const ex = await t.send(request(n));
        const got = isImageResult(ex.response?.json) ? ex.response!.json.data.length : 0;
        const ok = t.expect(ex.response?.status === 200 && got === n, `asking for ${n} of the ${remaining} images left today gave status ${ex.response?.status} with ${got} images`, RULE, ex);
        remaining -= n;
        return ok;
      };
      while (remaining > max - 1) if (!(await spend(Math.min(max, remaining - 1)))) return;
      if (t.ctx.profile.reference && remaining > 0) {
        // D5: asking for more than remains fails whole, and charges nothing.
        const over = await t.send(request(remaining + 1));
        if (t.status(over, 429, 'D5', `asking for ${remaining + 1} with ${remaining} left`)) t.shape(op, over);
      }
      if (remaining > 0 && !(await spend(remaining))) return;
      for (let extra = 0; extra <= slack; extra++) {
        const ex = await t.send(request(1));
        if (ex.response?.status === 429 || extra === slack) {
          if (!t.status(ex, 429, RULE, `one more image after the ${quota} of the day`)) return;
          t.shape(op, ex);
          return;
        }
      }
    },
  }));
}

/** The image operation to spend with: the one needing the fewest fields (generation, not edits). */
function spendingOperation(contract: Contract): Operation | undefined {
  const required = (op: Operation) => {
    const schema = op.raw.requestBody?.content['application/json']?.schema;
    return schema ? ((resolve(contract, schema).required as string[] | undefined)?.length ?? 0) : 0;
  };
  return imageOperations(contract)
    .filter((op) => { const s = op.raw.requestBody?.content['application/json']?.schema; return !!s && !!propertySchema(contract, s, 'n'); })
    .sort((a, b) => required(a) - required(b))[0];
}
