/**
 * `runConformance(options)`: checks an implementation of the gateway API against the contract and
 * returns a report. The command line (`cli.ts`) is a thin layer over it.
 */
import { contract, type KeyTier } from '../contract/index.ts';
import { Catalogue } from './catalogue.ts';
import { ImageLedger, Skip, Tester, type Check, type RunContext } from './check.ts';
import { createAgent, send } from './http.ts';
import { keyHeaders, KeyRing, keyTiers } from './keys.ts';
import { planChecks, selected, skipReason } from './plan.ts';
import { isProfileName, profiles, type ProfileName } from './profiles.ts';
import type { CheckResult, Report } from './results.ts';

export interface ConformanceOptions {
  /** Where the implementation listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** One key per tier; tier behaviour is checked for each tier given. */
  keys?: Partial<Record<KeyTier, string>>;
  profile?: ProfileName;
  /** Run the checks that spend a key's daily image quota. */
  destructive?: boolean;
  /** Only checks of these operationIds or families (or ids, or id prefixes). */
  only?: string[];
  /** Leave out the checks these name, the same way (for example a known, accepted deviation). */
  skip?: string[];
  /** Seed of the generated invalid requests. */
  seed?: number;
  /** Per request. */
  timeoutMs?: number;
  /** Stop at the first failing check (the rest are not run). */
  stopOnFailure?: boolean;
  /** A skipped check counts as a failure (for CI that must check everything). */
  strict?: boolean;
  /** Called when a check starts (result undefined) and when it ends. */
  onProgress?: (event: { check: Check; index: number; total: number; result?: CheckResult }) => void;
}

/** A problem with the options themselves (exit code 2). */
export class UsageError extends Error {}
/** The implementation could not be reached, or what answers is not the gateway (exit code 2). */
export class UnreachableError extends Error {}

/** A key for a stateless mock, which accepts any non-empty key. */
export const MOCK_KEY = 'sk-conformance-mock';

/**
 * Runs the suite and returns the report; throws `UsageError` or `UnreachableError` before any check runs.
 * @example
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:8080', keys: { starter: 'sk-demo-starter' }, profile: 'full' });
 * report.summary; // { passed: 120, failed: 0, skipped: 3, requests: 210 }
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const profileName = options.profile ?? 'core';
  if (!isProfileName(profileName)) throw new UsageError(`unknown profile '${profileName}' (core, full or mock)`);
  const profile = profiles[profileName];
  const baseUrl = checkBaseUrl(options.baseUrl);
  for (const tier of Object.keys(options.keys ?? {})) {
    if (!keyTiers.includes(tier as KeyTier)) throw new UsageError(`unknown tier '${tier}' (${keyTiers.join(', ')})`);
  }
  const keys = new KeyRing(profile.stateful || Object.keys(options.keys ?? {}).length > 0 ? (options.keys ?? {}) : { ultimate: MOCK_KEY });
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = Date.now();

  const catalogue = await readCatalogue(baseUrl, timeoutMs, keys.best()?.key);
  const agent = createAgent(baseUrl);
  const ctx: RunContext = { baseUrl, profile, keys, seed, catalogue, ledger: new ImageLedger(), timeoutMs, agent };
  try {
    return await runChecks(ctx, options, started);
  } finally {
    agent.destroy();
  }
}

async function runChecks(ctx: RunContext, options: ConformanceOptions, started: number): Promise<Report> {
  const only = options.only ?? [];
  const left = options.skip ?? [];
  const planned = planChecks(ctx);
  for (const [flag, names] of [['--only', only], ['--skip', left]] as const) {
    const unknown = names.filter((name) => !planned.some((c) => selected(c, [name])));
    if (unknown.length > 0) {
      throw new UsageError(`${flag} ${unknown.map((n) => `'${n}'`).join(', ')}: no check has this id, operationId or family in this run (--list shows them)`);
    }
  }
  const checks = planned.filter((c) => selected(c, only) && !(left.length > 0 && selected(c, left)));
  if (checks.length === 0) throw new UsageError(`--only ${only.join(',')} ${left.length ? `--skip ${left.join(',')} ` : ''}selects no check`);

  const results: CheckResult[] = [];
  let stopped = false;
  for (const [index, check] of checks.entries()) {
    options.onProgress?.({ check, index, total: checks.length });
    const reason = stopped ? 'not run: an earlier check failed (stopOnFailure)' : skipReason(check, ctx, options.destructive ?? false);
    const result = reason ? skipped(check, reason) : await runCheck(check, ctx);
    results.push(result);
    options.onProgress?.({ check, index, total: checks.length, result });
    if (result.outcome === 'failed' && options.stopOnFailure) stopped = true;
  }
  const count = (o: CheckResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return {
    baseUrl: ctx.baseUrl,
    profile: ctx.profile.name,
    destructive: options.destructive ?? false,
    seed: ctx.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), requests: results.reduce((n, r) => n + r.requests, 0) },
    results,
  };
}

/** A check as `--list` shows it: its id, the profiles that run it, and what it verifies. */
export interface ListedCheck {
  id: string;
  profiles: ProfileName[];
  title: string;
}

/**
 * Every check a run could make, without a server: as with a key of every tier and the contract's own
 * catalogue (the listing example). A real run makes those its keys and the server's listing allow.
 */
export function listChecks(): ListedCheck[] {
  const catalogue = Catalogue.fromListing(contract.spec.components.examples.ListModelsResponseExample?.value);
  const keys = new KeyRing(Object.fromEntries(keyTiers.map((tier) => [tier, `sk-${tier}`])));
  const ctx: RunContext = { baseUrl: 'http://localhost', profile: profiles.full, keys, seed: 1, catalogue, ledger: new ImageLedger(), timeoutMs: 0 };
  return planChecks(ctx).map((check) => ({
    id: check.id,
    profiles: (Object.keys(profiles) as ProfileName[]).filter((name) => !skipReason(check, { ...ctx, profile: profiles[name] }, true)),
    title: check.title,
  }));
}

function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url '${value}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url '${value}' is not an http(s) URL`);
  if (/\/v1\/?$/.test(url.pathname)) {
    const root = `${url.origin}${url.pathname.replace(/\/v1\/?$/, '')}`;
    throw new UsageError(
      `--base-url '${value}' ends in /v1, but the suite adds /v1/… to it itself (it would call ${root}/v1/v1/models). ` +
        `Pass the gateway's root: --base-url ${root}`,
    );
  }
  return url.toString().replace(/\/$/, '');
}

/**
 * Reads the model listing (a public operation), which also proves that the gateway is what answers: a
 * server that is not (a static file server, another API, the wrong port) ends the run before any check,
 * instead of failing every one of them.
 */
async function readCatalogue(baseUrl: string, timeoutMs: number, key: string | undefined): Promise<Catalogue> {
  const listing = contract.getOperation('listModels');
  const read = (headers: Record<string, string>) => send(baseUrl, { method: listing.method, path: listing.path, headers }, Math.min(timeoutMs, 10_000));
  let ex = await read({});
  if (!ex.response) throw new UnreachableError(`cannot reach ${baseUrl}: ${ex.error}`);
  // A listing that wrongly asks for a key is a violation for the checks to report; the catalogue is read with one.
  if (ex.response.status === 401 && key !== undefined) ex = await read(keyHeaders(key));
  const { status, contentType, json } = ex.response ?? { status: 0, contentType: null, json: undefined };
  // Only what says "this is a gateway": a listing with a `models` array. Whether it conforms (its status,
  // its fields) is for the checks to report, as violations.
  if (status < 200 || status >= 300 || !Array.isArray((json as { models?: unknown } | undefined)?.models)) {
    const answer = `${status} ${contentType ?? 'without a content type'}${status >= 200 && status < 300 ? ' without a "models" array' : ''}`;
    throw new UnreachableError(
      `${baseUrl} does not look like the gateway: GET ${listing.path} answered ${answer}, where the gateway answers 200 ` +
        `with its model listing ({"models": [...]}), key or no key. Is --base-url the gateway's root (scheme, host, port, ` +
        `and any path prefix it is served under)?`,
    );
  }
  return Catalogue.fromListing(json);
}

async function runCheck(check: Check, ctx: RunContext): Promise<CheckResult> {
  const t = new Tester(ctx, check.family === 'quota');
  const started = performance.now();
  let reason: string | undefined;
  try {
    await check.run(t);
  } catch (e) {
    if (e instanceof Skip) reason = e.message;
    else t.fail(`the check itself failed: ${(e as Error).stack ?? e}`, 'conformance suite');
  }
  const base = { ...describe(check), requests: t.requests, durationMs: Math.round(performance.now() - started), violations: t.violations };
  if (t.violations.length > 0) return { ...base, outcome: 'failed' };
  if (reason) return { ...base, outcome: 'skipped', reason };
  return { ...base, outcome: 'passed' };
}

function skipped(check: Check, reason: string): CheckResult {
  return { ...describe(check), outcome: 'skipped', reason, violations: [], requests: 0, durationMs: 0 };
}

function describe(check: Check) {
  return { id: check.id, operationId: check.operationId, family: check.family, title: check.title };
}
