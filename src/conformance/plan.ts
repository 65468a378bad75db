/**
 * Every check of the suite, in the order they run: the cheap ones first (a run that stops at its first
 * failure stops sooner), those that make images later, and the quota last: it spends what the others leave.
 *
 * A check's id is `<operationId>/<family>/<slug>` (after `<contract>:` for another contract than the
 * gateway's), and the checks of a family live in `checks/<family>.ts`: a failing id names the file that holds
 * its check. The same checks serve every description: each is planned from its operations and schemas, when
 * the description states the rule it verifies.
 */
import type { Check, RunContext } from './check.ts';
import { authChecks } from './checks/auth.ts';
import { errorChecks } from './checks/errors.ts';
import { imageChecks } from './checks/images.ts';
import { quotaChecks } from './checks/quota.ts';
import { responseChecks } from './checks/responses.ts';
import { streamingChecks } from './checks/streaming.ts';
import { behaviourChecks } from './checks/behaviour.ts';
import { tierChecks } from './checks/tiers.ts';
import { validationChecks } from './checks/validation.ts';
import { splitQualified, unqualified } from './results.ts';

export function planChecks(ctx: RunContext): Check[] {
  const checks = [
    ...responseChecks(ctx),
    ...authChecks(ctx),
    ...streamingChecks(ctx),
    ...behaviourChecks(ctx),
    ...tierChecks(ctx),
    ...validationChecks(ctx),
    ...errorChecks(ctx),
    ...imageChecks(ctx),
    ...quotaChecks(ctx),
  ];
  const ids = new Set<string>();
  for (const c of checks) {
    if (ids.has(c.id)) throw new Error(`Two checks share the id ${c.id}`);
    ids.add(c.id);
  }
  return checks;
}

/**
 * Whether `--only` (or `--skip`, `--waive`) names a check: by operationId, family, id, or id prefix, each
 * with or without its contract (`openai:createChatCompletion`), or by contract alone (`openai:`).
 */
export function selected(check: Check, only: readonly string[]): boolean {
  if (only.length === 0) return true;
  const own = unqualified(check.contract, check.id);
  const named = (o: string) => check.operationId === o || check.family === o || own === o || own.startsWith(`${o}/`);
  return only.some((given) => {
    const { contract, name } = splitQualified(given);
    if (contract === undefined) return named(name);
    return contract === check.contract && (name === '' || named(name));
  });
}

/** Why a check does not run in this run, or undefined when it does. */
export function skipReason(check: Check, ctx: RunContext, destructive: boolean): string | undefined {
  if (check.reference && !ctx.profile.reference) return 'reference decision: checked in the full profile';
  if (check.stateful && !ctx.profile.stateful) return 'a stateless mock cannot do this';
  if (check.destructive && !destructive) return "spends a key's daily quota: run with --destructive";
  return undefined;
}
