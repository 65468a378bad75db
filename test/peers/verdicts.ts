/**
 * The suite run through a third-party gateway in front of the reference server, and the verdicts that
 * docs/peer-findings.md documents for it: what test/peers/*.test.ts compare, and what
 * scripts/peer-findings.ts prints to refresh the document.
 *
 * A verdict is the set of failed checks, each with the rule ids of its violations. The document is the one
 * list: the tests read it, so the two cannot disagree.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CheckResult, Report, Violation } from '../../src/conformance/results.ts';
import { runConformance } from '../../src/conformance/run.ts';
import { demoKeys } from '../conformance/helpers/keys.ts';
import type { PeerGateway } from '../../scripts/lib/peer-gateways.ts';

export type PeerContract = 'openai' | 'anthropic';
export const peerContracts: readonly PeerContract[] = ['openai', 'anthropic'];

export const findingsFile = fileURLToPath(new URL('../../docs/peer-findings.md', import.meta.url));

/**
 * The models to check with, one per protocol, as the reference lists them. Named rather than read from the
 * listing because @llmops/gateway answers `GET /v1/models` with a 500, so the suite could not find one
 * through it; Portkey is given the same ones so both gateways are judged on the same requests (through
 * Portkey the listing leads the suite to these very models).
 */
const models: Record<PeerContract, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' };

/**
 * Runs the suite's core profile through `gateway` to the reference at `upstreamRoot`, against one vendor
 * protocol, with two demo keys (the checks that one key cannot reach another's stored response need two).
 * No waiver: a gateway in front of the reference is judged as it answers, including what it passes on of the
 * reference's own documented deviations (D30).
 */
export function judge(gateway: PeerGateway, upstreamRoot: string, contract: PeerContract): Promise<Report> {
  return runConformance({
    baseUrl: gateway.baseUrl,
    contracts: [contract],
    apiKeys: [demoKeys.ultimate, demoKeys.pro],
    contractModels: { [contract]: [models[contract]] },
    headers: gateway.headers(contract, upstreamRoot),
  });
}

/** check id → the sorted, distinct rule ids of its violations. */
export type Verdicts = Record<string, string[]>;

/** The failed checks of a report. */
export function failures(report: Report): Verdicts {
  const found: Verdicts = {};
  for (const r of report.results) {
    if (r.outcome === 'failed') found[r.id] = [...new Set(r.violations.map((v) => v.ruleId ?? '(no rule id)'))].sort();
  }
  return sorted(found);
}

/**
 * The verdicts docs/peer-findings.md lists for a gateway (named as `PeerGateway.name` is, package and
 * version: a section for another version does not count) and a contract: every table row, under the
 * gateway's `##` heading and the contract's `### … --contract <name>` heading, whose first cell is a check
 * id; its rule ids are the backquoted ids of the second cell. A check may have rows under several headings
 * (a violation of each kind).
 */
export function documented(gatewayName: string, contract: PeerContract, markdown = readFileSync(findingsFile, 'utf8')): Verdicts {
  const found: Record<string, Set<string>> = {};
  let inGateway = false;
  let inContract = false;
  for (const line of markdown.split('\n')) {
    const h2 = /^## (.*)/.exec(line);
    if (h2) {
      inGateway = h2[1]!.replace(/`/g, '').includes(gatewayName);
      inContract = false;
      continue;
    }
    const h3 = /^### (.*)/.exec(line);
    if (h3) {
      inContract = inGateway && new RegExp(`--contract ${contract}\\b`).test(h3[1]!);
      continue;
    }
    if (!inContract) continue;
    const row = /^\|\s*`([a-z]+:[^`]+)`\s*\|([^|]*)\|/.exec(line);
    if (!row || !row[1]!.startsWith(`${contract}:`)) continue;
    const rules = [...row[2]!.matchAll(/`([a-z]+\/[a-z-]+)`/g)].map((m) => m[1]!);
    const set = (found[row[1]!] ??= new Set());
    for (const rule of rules) set.add(rule);
  }
  return sorted(Object.fromEntries(Object.entries(found).map(([id, rules]) => [id, [...rules].sort()])));
}

function sorted(verdicts: Verdicts): Verdicts {
  return Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What differs between a run's verdicts and the document's, in words (empty when they agree). */
export function disagreement(found: Verdicts, listed: Verdicts, report: Report): string {
  const lines: string[] = [];
  for (const [id, rules] of Object.entries(found)) {
    const doc = listed[id];
    if (doc?.join() === rules.join()) continue;
    const result = report.results.find((r) => r.id === id)!;
    lines.push(doc ? `${id}: fails on ${rules.join(', ')}, documented as ${doc.join(', ')}:` : `${id}: fails, not documented:`);
    lines.push(...rows(result));
  }
  for (const id of Object.keys(listed)) if (!found[id]) lines.push(`${id}: documented as failing, ${report.results.find((r) => r.id === id)?.outcome ?? 'not run'}`);
  return lines.join('\n');
}

/**
 * A failed check as rows of the document's tables, one per rule it breaks:
 * `| check id | rule id ([vendor page](url)) | evidence |`, the evidence being what the violations say and
 * the first one's exchange (request line, status, the start of the body), ids and times elided so that a
 * refresh changes only what changed.
 */
export function rows(result: CheckResult): string[] {
  const byRule = new Map<string, Violation[]>();
  for (const v of result.violations) byRule.set(v.ruleId ?? '(no rule id)', [...(byRule.get(v.ruleId ?? '(no rule id)') ?? []), v]);
  return [...byRule].map(([rule, violations]) => {
    const first = violations[0]!;
    const page = first.url ? ` ([${pageName(first.url)}](${first.url}))` : '';
    const said = [...new Set(violations.map((v) => v.message))].join('; ');
    return `| \`${result.id}\` | \`${rule}\`${page} | ${cell(said)}: ${exchange(first)} |`;
  });
}

function pageName(url: string): string {
  const u = new URL(url);
  return `${u.pathname.replace(/^\/(en\/)?(docs\/)?/, '')}${u.hash}` || u.host;
}

function exchange(v: Violation): string {
  const ex = v.exchange;
  if (!ex) return '(no exchange)';
  const path = elide(new URL(ex.request.url).pathname);
  const answer = ex.response ? `${ex.response.status} \`${cell(excerpt(elide(ex.response.text)))}\`` : `no answer (${cell(ex.error ?? '')})`;
  return `\`${ex.request.method} ${path}\` → ${answer}`;
}

/** Generated ids and times, which differ on every run. */
function elide(text: string): string {
  return text.replace(/\b(chatcmpl-|resp_|msg_|toolu_|call_|fc_|rs_)[A-Za-z0-9]+/g, '$1…').replace(/("created(?:_at)?":)\d+/g, '$1…');
}

function excerpt(text: string, max = 150): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Safe inside a table cell and a code span. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'");
}

/**
 * Runs `fn` with the console captured instead of printed, and returns what was printed with its result.
 * @llmops/gateway runs in this process and logs a stack trace for every error case it handles (its own
 * 500s, malformed JSON), which the run provokes on purpose; printed, they would bury the test's output.
 */
export async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; log: string }> {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => console[m]);
  let log = '';
  for (const m of methods) console[m] = (...args: unknown[]) => void (log += `${args.map(String).join(' ')}\n`);
  try {
    return { result: await fn(), log };
  } catch (error) {
    if (error instanceof Error) error.message += `\nWhat was logged meanwhile:\n${log.slice(-10_000)}`;
    throw error;
  } finally {
    methods.forEach((m, i) => (console[m] = saved[i]!));
  }
}
