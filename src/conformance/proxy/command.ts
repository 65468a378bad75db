/**
 * `gateway-conformance proxy --upstream URL …`: runs the validating proxy until SIGINT or SIGTERM, printing each
 * violation as it happens, writing the reports at the end (and every `--report-every` seconds), and exiting 1
 * when any exchange broke a rule.
 */
import { contractNames, type ContractName } from '../../contract/index.ts';
import { contractsOf, headersOf, integer, parseOptions, type Output } from '../args.ts';
import { isProfileName, type ProfileName } from '../profiles.ts';
import { operationLabel } from '../results.ts';
import { UsageError } from '../run.ts';
import { startProxy, type Proxy } from './proxy.ts';
import type { Judged } from './judge.ts';

export const PROXY_USAGE = `Usage: gateway-conformance proxy --upstream URL [options]

Stands between any client and any implementation: forwards every request and answer unchanged (streams event by
event), and checks each exchange against the contract(s), saying who broke a rule, the client or the server.

Options:
  --upstream URL         the implementation's root, without /v1 (required)
  --port N               where to listen (default 8790; 0 picks a free port)
  --host HOST            the address to listen on (default 127.0.0.1: anything else makes it a relay for others)
  --contract NAME        ${contractNames.join(', ')} (default gateway); repeat for traffic of several protocols
  --header 'NAME: VALUE' added to every forwarded request (a gateway's routing headers); repeatable
  --profile NAME         core (default) or full: which of the gateway's rules apply
  --keep N               violating exchanges kept whole for the reports (default 100; the rest are counted)
  --junit FILE, --json FILE, --html FILE
                         the reports, written when it stops (SIGINT, SIGTERM) and every --report-every seconds
  --report-every S       write the reports every S seconds too
  --quiet                print no line per violation

Exit status (when stopped): 0 no exchange broke a rule, 1 one did, 2 a usage error.`;

export interface ProxyCliOptions {
  upstream: string;
  port: number;
  host: string;
  contracts: ContractName[];
  profile: ProfileName;
  headers: Record<string, string>;
  keep: number;
  junit?: string;
  json?: string;
  html?: string;
  reportEvery?: number;
  quiet: boolean;
  help: boolean;
}

export function parseProxyCli(argv: string[]): ProxyCliOptions {
  const values = parseOptions(argv, {
    upstream: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, contract: { type: 'string', multiple: true },
    header: { type: 'string', multiple: true }, profile: { type: 'string' }, keep: { type: 'string' }, junit: { type: 'string' },
    json: { type: 'string' }, html: { type: 'string' }, 'report-every': { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  });
  const help = values.help ?? false;
  if (!help && !values.upstream) throw new UsageError('--upstream is required');
  if (values.upstream) {
    let url: URL;
    try {
      url = new URL(values.upstream);
    } catch {
      throw new UsageError(`--upstream '${values.upstream}' is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--upstream '${values.upstream}' is not an http(s) URL`);
    if (/\/v1\/?$/.test(url.pathname)) throw new UsageError(`--upstream '${values.upstream}' ends in /v1: pass the implementation's root (clients keep their own /v1)`);
  }
  const contracts = contractsOf(values.contract);
  const profile = values.profile ?? 'core';
  if (!isProfileName(profile) || profile === 'mock') throw new UsageError(`--profile must be core or full, not '${profile}'`);
  const headers = headersOf(values.header);
  return {
    upstream: values.upstream ?? '',
    port: integer('--port', values.port, 8790),
    host: values.host ?? '127.0.0.1',
    contracts,
    profile,
    headers,
    keep: integer('--keep', values.keep, 100),
    ...(values.junit ? { junit: values.junit } : {}),
    ...(values.json ? { json: values.json } : {}),
    ...(values.html ? { html: values.html } : {}),
    ...(values['report-every'] ? { reportEvery: integer('--report-every', values['report-every'], 0) } : {}),
    quiet: values.quiet ?? false,
    help,
  };
}

/** One line per violation: the exchange, the operation, who broke the rule, the rule, what was wrong. */
export function formatViolations(judged: readonly Judged[]): string[] {
  return judged.flatMap((j) =>
    j.violations.filter((v) => !v.waived).map((v) => `✗ ${j.id} ${operationLabel(j)}  ${v.side}  ${v.ruleId ?? v.rule}  ${v.message.split('\n')[0]!.slice(0, 200)}`),
  );
}

/**
 * Runs the proxy command until `stopped` resolves (SIGINT or SIGTERM, in the command line), and returns its
 * exit status. `write.files` writes the report files asked for, `write.console` the report printed at the end.
 */
export async function runProxy(
  options: ProxyCliOptions,
  out: Output,
  err: Output,
  stopped: Promise<void>,
  write: { files(proxy: Proxy): void; console(proxy: Proxy): string },
): Promise<number> {
  const proxy = await startProxy({
    upstream: options.upstream, host: options.host, port: options.port, contracts: options.contracts, profile: options.profile,
    headers: options.headers, keep: options.keep,
    onJudged: (judged) => {
      if (!options.quiet) for (const line of formatViolations(judged)) err.write(`${line}\n`);
    },
  });
  const open = !['127.0.0.1', '::1', 'localhost'].includes(options.host);
  err.write(`gateway-conformance proxy: ${proxy.baseUrl} → ${options.upstream}, checking against ${(options.contracts.length ? options.contracts : ['gateway']).join(' and ')}${open ? ` (listening on ${options.host}: anyone who reaches it can send through it)` : ''}\n`);
  const every = options.reportEvery ? setInterval(() => write.files(proxy), options.reportEvery * 1000) : undefined;
  every?.unref();
  await stopped;
  if (every) clearInterval(every);
  await proxy.close();
  write.files(proxy);
  out.write(write.console(proxy));
  return proxy.ledger.violating > 0 ? 1 : 0;
}
