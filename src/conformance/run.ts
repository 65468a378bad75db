/**
 * `runConformance(options)`: checks a server against one or more descriptions (this gateway's contract,
 * OpenAI's protocol, Anthropic's) and returns a report. The command line (`cli.ts`) is a thin layer over it.
 */
import { contract as gatewayContract, isContractName, isPublic, loadContract, type Contract, type ContractName, type KeyTier } from '../contract/index.ts';
import { Catalogue } from './catalogue.ts';
import type { Check, RunContext } from './check.ts';
import { clientHeaders } from './examples.ts';
import { createAgent, send, type Exchange } from './http.ts';
import { ImageLedger } from './image-ledger.ts';
import { Credentials, KeyRing, keyTiers } from './keys.ts';
import { planChecks, selected, skipReason } from './plan.ts';
import { isProfileName, profiles, type ProfileName } from './profiles.ts';
import type { CheckResult, Report } from './results.ts';
import { imageOperations, listingOperation } from './scope.ts';
import { CheckTester, Skip } from './tester.ts';

export interface ConformanceOptions {
  /** Where the implementation listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The descriptions to check against, in order (default: the gateway's contract). */
  contracts?: ContractName[];
  /** One key per tier; tier behaviour is checked for each tier given. */
  keys?: Partial<Record<KeyTier, string>>;
  /** Keys given without a tier (a vendor protocol has none): the first is used for every request. */
  apiKeys?: string[];
  /** Models to check with, for every contract (`--model ID`), or for one (`--model openai=ID`), instead of the listing's. */
  models?: string[];
  contractModels?: Partial<Record<ContractName, string[]>>;
  /** Headers sent with every request (`--header`), for a server that routes by them. */
  headers?: Record<string, string>;
  /**
   * Deviations the implementation makes on purpose (`--waive`): a rule id (`openai/error-object`) or a check
   * (named as `--skip` names it). Still checked, and reported as waived, not failed.
   */
  waive?: string[];
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
/** The implementation could not be reached, or what answers is not what the contract describes (exit code 2). */
export class UnreachableError extends Error {}

/** A key for a stateless mock, which accepts any non-empty key. */
export const MOCK_KEY = 'sk-conformance-mock';

/**
 * Runs the suite and returns the report; throws `UsageError` or `UnreachableError` before any check runs.
 * @example
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:8080', keys: { starter: 'sk-demo-starter' }, profile: 'full' });
 * report.summary; // { passed: 120, failed: 0, skipped: 3, waived: 0, requests: 210 }
 * await runConformance({ baseUrl: 'http://127.0.0.1:8000', contracts: ['openai'], apiKeys: ['sk-…'], models: ['my-model'] });
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const profileName = options.profile ?? 'core';
  if (!isProfileName(profileName)) throw new UsageError(`unknown profile '${profileName}' (core, full or mock)`);
  const profile = profiles[profileName];
  const names = options.contracts?.length ? [...new Set(options.contracts)] : (['gateway'] as ContractName[]);
  for (const name of names) if (!isContractName(name)) throw new UsageError(`unknown contract '${name}' (gateway, openai or anthropic)`);
  const baseUrl = checkBaseUrl(options.baseUrl);
  for (const tier of Object.keys(options.keys ?? {})) {
    if (!keyTiers.includes(tier as KeyTier)) throw new UsageError(`unknown tier '${tier}' (${keyTiers.join(', ')})`);
  }
  const given = Object.keys(options.keys ?? {}).length + (options.apiKeys?.length ?? 0) > 0;
  const keys = profile.stateful || given ? new KeyRing(options.keys ?? {}, options.apiKeys) : new KeyRing({ ultimate: MOCK_KEY });
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers = options.headers ?? {};
  const started = Date.now();

  const agent = createAgent(baseUrl);
  try {
    const contexts: RunContext[] = [];
    for (const name of names) {
      const contract = loadContract(name);
      const credentials = new Credentials(contract);
      const models = [...(options.contractModels?.[name] ?? []), ...(options.models ?? [])];
      const catalogue = await readCatalogue({ baseUrl, contract, credentials, key: keys.best()?.key, headers, timeoutMs, models });
      contexts.push({ baseUrl, profile, keys, seed, catalogue, ledger: new ImageLedger(), timeoutMs, agent, contract, protocol: contract.protocol!, credentials, headers });
    }
    return await runChecks(contexts, options, started);
  } finally {
    agent.destroy();
  }
}

async function runChecks(contexts: RunContext[], options: ConformanceOptions, started: number): Promise<Report> {
  const only = options.only ?? [];
  const left = options.skip ?? [];
  const waivers = options.waive ?? [];
  const planned = contexts.flatMap((ctx) => planChecks(ctx).map((check) => ({ check, ctx })));
  const rules = new Set(contexts.flatMap((ctx) => ctx.protocol.rules().map((r) => r.id)));
  for (const [flag, names] of [['--only', only], ['--skip', left], ['--waive', waivers]] as const) {
    const unknown = names.filter((name) => !planned.some(({ check }) => selected(check, [name])) && !(flag === '--waive' && rules.has(name)));
    if (unknown.length > 0) {
      const what = flag === '--waive' ? 'no rule of the contracts checked and no check has this id' : 'no check has this id, operationId or family in this run';
      throw new UsageError(`${flag} ${unknown.map((n) => `'${n}'`).join(', ')}: ${what} (--list shows them)`);
    }
  }
  const checks = planned.filter(({ check }) => selected(check, only) && !(left.length > 0 && selected(check, left)));
  if (checks.length === 0) throw new UsageError(`--only ${only.join(',')} ${left.length ? `--skip ${left.join(',')} ` : ''}selects no check`);

  const results: CheckResult[] = [];
  let stopped = false;
  for (const [index, { check, ctx }] of checks.entries()) {
    options.onProgress?.({ check, index, total: checks.length });
    const reason = stopped ? 'not run: an earlier check failed (stopOnFailure)' : skipReason(check, ctx, options.destructive ?? false);
    const result = reason ? skipped(ctx, check, reason) : await runCheck(check, ctx, waivers);
    results.push(result);
    options.onProgress?.({ check, index, total: checks.length, result });
    if (result.outcome === 'failed' && options.stopOnFailure) stopped = true;
  }
  const count = (o: CheckResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const first = contexts[0]!;
  return {
    baseUrl: first.baseUrl,
    contracts: contexts.map((ctx) => ctx.protocol.name),
    waivers,
    profile: first.profile.name,
    destructive: options.destructive ?? false,
    seed: first.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), waived: count('waived'), requests: results.reduce((n, r) => n + r.requests, 0) },
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
 * Every check a run could make against a contract, without a server: as with a key of every tier (a key
 * without one for a vendor protocol) and the contract's own catalogue (the gateway's listing example). A real
 * run makes those its keys and the server's listing allow.
 */
export function listChecks(names: ContractName[] = ['gateway']): ListedCheck[] {
  return names.flatMap((name) => {
    const contract = loadContract(name);
    const gateway = name === 'gateway';
    const catalogue = Catalogue.fromListing(gatewayContract.spec.components.examples.ListModelsResponseExample?.value, imageOperations(contract).map((op) => op.path));
    const keys = gateway ? new KeyRing(Object.fromEntries(keyTiers.map((tier) => [tier, `sk-${tier}`]))) : new KeyRing({}, ['sk-one', 'sk-two']);
    const ctx: RunContext = {
      baseUrl: 'http://localhost', profile: profiles.full, keys, seed: 1, catalogue, ledger: new ImageLedger(), timeoutMs: 0,
      contract, protocol: contract.protocol!, credentials: new Credentials(contract), headers: {},
    };
    return planChecks(ctx).map((check) => ({
      id: check.id,
      profiles: (Object.keys(profiles) as ProfileName[]).filter((p) => !skipReason(check, { ...ctx, profile: profiles[p] }, true)),
      title: check.title,
    }));
  });
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
        `Pass the server's root: --base-url ${root}`,
    );
  }
  return url.toString().replace(/\/$/, '');
}

interface CatalogueSource {
  baseUrl: string;
  contract: Contract;
  credentials: Credentials;
  key: string | undefined;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Models given with `--model`, used before the listing's. */
  models: string[];
}

/** The entries of a listing body in either shape (`models` or `data`), or undefined when it is neither. */
function listed(json: unknown): unknown[] | undefined {
  const body = json as { models?: unknown; data?: unknown } | undefined;
  return Array.isArray(body?.models) ? body.models : Array.isArray(body?.data) ? body.data : undefined;
}

/**
 * The models to check with: the server's own listing (which, for the gateway's contract, also proves that
 * the gateway is what answers: a server that is not ends the run before any check, instead of failing every
 * one of them), with the models given by `--model` first. A description without a listing operation
 * (Anthropic's) reads `GET /v1/models` all the same when no model is given, in whatever shape it comes.
 */
async function readCatalogue(source: CatalogueSource): Promise<Catalogue> {
  const { baseUrl, contract, credentials, key, headers, timeoutMs, models } = source;
  const imagePaths = imageOperations(contract).map((op) => op.path);
  const listing = listingOperation(contract);
  const path = listing?.path ?? '/v1/models';
  const read = (withKey: boolean): Promise<Exchange> =>
    send(baseUrl, { method: 'GET', path, headers: { ...headers, ...(withKey ? credentials.headers(key, listing) : {}), ...clientHeaders(listing ?? contract.operations[0]!) } }, Math.min(timeoutMs, 10_000));
  const isGateway = contract.protocol?.name === 'gateway';
  let ex = await read(!listing || !isPublic(listing));
  if (!ex.response) throw new UnreachableError(`cannot reach ${baseUrl}: ${ex.error}`);
  // A public listing that wrongly asks for a key is a violation for the checks to report; the catalogue is read with one.
  if (ex.response.status === 401 && key !== undefined && listing && isPublic(listing)) ex = await read(true);
  const { status, contentType, json } = ex.response ?? { status: 0, contentType: null, json: undefined };
  const entries = status >= 200 && status < 300 ? listed(json) : undefined;
  if (isGateway && !Array.isArray((json as { models?: unknown } | undefined)?.models)) {
    const openai = entries !== undefined;
    throw new UnreachableError(
      `${baseUrl} does not look like the gateway: GET ${path} answered ${status} ${contentType ?? 'without a content type'}` +
        (openai
          ? ` with OpenAI's list shape ({"data": [...]}), not the gateway's listing ({"models": [...]}). To check an OpenAI- or Anthropic-compatible server, pass --contract openai (and --contract anthropic if it speaks that protocol too).`
          : `${status >= 200 && status < 300 ? ' without a "models" array' : ''}, where the gateway answers 200 with its model listing ({"models": [...]}), key or no key. ` +
            `Is --base-url the gateway's root (scheme, host, port, and any path prefix it is served under)? For an OpenAI- or Anthropic-compatible server, pass --contract openai or --contract anthropic.`),
    );
  }
  const catalogue = Catalogue.fromListing(entries === undefined ? undefined : json, imagePaths, models);
  if (models.length === 0 && catalogue.models.length === 0) {
    throw new UsageError(
      `no model to check ${contract.protocol?.title ?? contract.id}'s protocol with: GET ${path} answered ${status} ${contentType ?? 'without a content type'}${entries ? ' with no model in it' : ''}. ` +
        `Pass --model ID (or --model ${contract.protocol?.name}=ID).`,
    );
  }
  return catalogue;
}

async function runCheck(check: Check, ctx: RunContext, waivers: readonly string[]): Promise<CheckResult> {
  const t = new CheckTester(ctx, check, check.family === 'quota');
  const started = performance.now();
  let reason: string | undefined;
  try {
    await check.run(t);
  } catch (e) {
    if (e instanceof Skip) reason = e.message;
    else t.fail(`the check itself failed: ${(e as Error).stack ?? e}`, 'conformance suite');
  }
  const waivedCheck = waivers.length > 0 && selected(check, waivers);
  const violations = t.violations.map((v) => (waivedCheck || (v.ruleId !== undefined && waivers.includes(v.ruleId)) ? { ...v, waived: true } : v));
  const base = { ...describe(ctx, check), requests: t.requests, durationMs: Math.round(performance.now() - started), violations };
  if (violations.some((v) => !v.waived)) return { ...base, outcome: 'failed' };
  if (violations.length > 0) return { ...base, outcome: 'waived' };
  if (reason) return { ...base, outcome: 'skipped', reason };
  return { ...base, outcome: 'passed' };
}

function skipped(ctx: RunContext, check: Check, reason: string): CheckResult {
  return { ...describe(ctx, check), outcome: 'skipped', reason, violations: [], requests: 0, durationMs: 0 };
}

/** Where an operation is described: the gateway's docs page at the operation, or the vendor's page for it. */
function docsOf(ctx: RunContext, operationId: string): string | undefined {
  const op = ctx.contract.operations.find((o) => o.operationId === operationId);
  const external = (op?.raw as { externalDocs?: { url?: string } } | undefined)?.externalDocs?.url;
  if (external) return external;
  const reference = ctx.protocol.reference;
  if (/^https?:/.test(reference)) return reference;
  return `${ctx.baseUrl}${reference}${op ? `#operation/${encodeURIComponent(operationId)}` : ''}`;
}

function describe(ctx: RunContext, check: Check) {
  return { id: check.id, contract: check.contract, operationId: check.operationId, family: check.family, title: check.title, docs: docsOf(ctx, check.operationId) };
}
