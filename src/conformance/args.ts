/** The command line of `gateway-conformance`, parsed into `runConformance` options. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { contractNames, isContractName, type ContractName, type KeyTier } from '../contract/index.ts';
import { keyTiers } from './keys.ts';
import { isProfileName } from './profiles.ts';
import { UsageError, type ConformanceOptions } from './run.ts';

export const USAGE = `Usage: gateway-conformance --base-url URL [options]
       gateway-conformance proxy --upstream URL [options]   (see proxy --help)

Checks a server against a description: the AI Model Gateway's contract (the default), or OpenAI's or
Anthropic's protocol, each with its own rules (openapi/, openapi/openai/, openapi/anthropic/).

Options:
  --base-url URL         the server's root, without /v1 (required)
  --contract NAME        ${contractNames.join(', ')} (default gateway); repeat for a server that speaks several
  --key TIER=KEY         a key and its tier (${keyTiers.join(', ')}); repeat for each tier
  --key KEY              a key without a tier (OpenAI's and Anthropic's protocols have none); a second
                         one lets the checks between two keys run
  --model ID             the model to check with, instead of one from the server's listing; repeatable;
                         --model openai=ID gives one contract its own
  --header 'NAME: VALUE' sent with every request (for a gateway that routes by header); repeatable
  --waive ID             a deviation made on purpose: a rule id (openai/error-object) or a check (as for
                         --skip); still checked and reported, as waived, not failed; repeatable
  --profile NAME         core (default): what the description requires
                         full: core and the gateway's reference decisions
                         mock: core minus what a stateless mock (Prism) cannot do
  --destructive          also spend each key's daily image quota (keys must be fresh for the day)
  --only NAME            only the checks of an operationId or a family (responses, auth, validation,
                         errors, behaviour, streaming, images, tiers, quota), or of a contract
                         (openai:, openai:createChatCompletion); repeatable, or comma-separated
  --skip NAME            leave out checks named the same way (a check id such as
                         createImage/errors/too-large, or a family, or an operationId)
  --seed N               seed of the generated invalid requests (default 1)
  --timeout MS           per request (default 30000)
  --strict               a skipped check fails the run too (for CI that must check everything)
  --junit FILE           also write JUnit XML (missing folders are created)
  --json FILE            also write the report as JSON
  --html FILE            also write the report as one self-contained page, failures first
  --list                 list the checks of the contracts (id, profiles, what each verifies) and exit;
                         needs no server
  --quiet                no progress lines
  --version              the suite's version and the contract's
  --help                 this text

Exit status: 0 conforms (waived deviations included), 1 a violation was found (or, with --strict, a
check was skipped), 2 usage error, server unreachable or not what the contract describes, or no check ran.`;

/** Where the command writes: stdout and stderr, or a test's capture. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * A usage error as the command prints it: the reason, then where to read the options; not the whole usage
 * text, under which the reason would scroll away.
 */
export function usageErrorText(command: string, reason: string): string {
  return `${command}: ${reason}\nRun '${command} --help' for the options.\n`;
}

export interface CliOptions extends ConformanceOptions {
  junit?: string;
  json?: string;
  html?: string;
  quiet: boolean;
  help: boolean;
  list: boolean;
  version: boolean;
}

/**
 * @example
 * parseCli(['--base-url', 'http://127.0.0.1:8080', '--key', 'pro=sk-demo-pro', '--profile', 'full']);
 */
export function parseCli(argv: string[]): CliOptions {
  const values = parseOptions(argv, {
    'base-url': { type: 'string' },
    contract: { type: 'string', multiple: true },
    key: { type: 'string', multiple: true },
    model: { type: 'string', multiple: true },
    header: { type: 'string', multiple: true },
    waive: { type: 'string', multiple: true },
    profile: { type: 'string' },
    destructive: { type: 'boolean' },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    seed: { type: 'string' },
    timeout: { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'string' },
    html: { type: 'string' },
    quiet: { type: 'boolean' },
    strict: { type: 'boolean' },
    list: { type: 'boolean' },
    version: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const profile = values.profile ?? 'core';
  if (!isProfileName(profile)) throw new UsageError(`--profile must be core, full or mock, not '${profile}'`);
  const chosen = contractsOf(values.contract);
  const asked = { help: values.help ?? false, list: values.list ?? false, version: values.version ?? false };
  if (asked.help || asked.list || asked.version) return { baseUrl: values['base-url'] ?? '', contracts: chosen, profile, quiet: true, ...asked };
  if (!values['base-url']) throw new UsageError('--base-url is required');
  const keys: Partial<Record<KeyTier, string>> = {};
  const apiKeys: string[] = [];
  for (const given of values.key ?? []) {
    const match = /^([a-z]+)=(.+)$/.exec(given);
    if (!match) {
      apiKeys.push(given);
      continue;
    }
    if (!keyTiers.includes(match[1] as KeyTier)) throw new UsageError(`--key: unknown tier '${match[1]}' (${keyTiers.join(', ')}); a key without a tier is given alone: --key KEY`);
    const [, tier, key] = match as unknown as [string, string, string];
    if (keys[tier as KeyTier]) throw new UsageError(`--key: tier '${tier}' given twice`);
    keys[tier as KeyTier] = key;
  }
  const models: string[] = [];
  const contractModels: Partial<Record<ContractName, string[]>> = {};
  for (const given of values.model ?? []) {
    const [name, id] = given.includes('=') ? (given.split(/=(.*)/s) as [string, string]) : [undefined, given];
    if (!id) throw new UsageError(`--model '${given}' names no model`);
    if (name === undefined) models.push(id);
    else if (!isContractName(name)) throw new UsageError(`--model: unknown contract '${name}' in '${given}' (${contractNames.join(', ')})`);
    else (contractModels[name] ??= []).push(id);
  }
  const headers = headersOf(values.header);
  return {
    baseUrl: values['base-url'],
    contracts: chosen,
    keys,
    apiKeys,
    models,
    contractModels,
    headers,
    waive: list(values.waive),
    profile,
    destructive: values.destructive ?? false,
    only: list(values.only),
    skip: list(values.skip),
    seed: integer('--seed', values.seed, 1),
    timeoutMs: integer('--timeout', values.timeout, 30_000),
    ...(values.junit ? { junit: values.junit } : {}),
    ...(values.json ? { json: values.json } : {}),
    ...(values.html ? { html: values.html } : {}),
    quiet: values.quiet ?? false,
    strict: values.strict ?? false,
    help: false,
    list: false,
    version: false,
  };
}

/** The options of a command line, parsed strictly (no positional arguments); a wrong one is a usage error. */
export function parseOptions<const T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A repeatable option's values, each of which may also list several, comma-separated. */
export function list(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean);
}

/** `--contract` (repeatable, comma-separated), each a contract's name. */
export function contractsOf(values: string[] | undefined): ContractName[] {
  const contracts = list(values);
  for (const name of contracts) if (!isContractName(name)) throw new UsageError(`--contract must be ${contractNames.join(', ')}, not '${name}'`);
  return contracts as ContractName[];
}

/** `--header 'Name: value'` (repeatable), the names in lower case. */
export function headersOf(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const given of values ?? []) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(given);
    if (!match) throw new UsageError(`--header '${given}' is not 'Name: value'`);
    headers[match[1]!.toLowerCase()] = match[2]!;
  }
  return headers;
}

/** A whole number given to `flag`, or `fallback` when it was not given. */
export function integer(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, not '${value}'`);
  return Number(value);
}
