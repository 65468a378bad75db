/** The command line of `gateway-conformance`, parsed into `runConformance` options. */
import { parseArgs } from 'node:util';
import type { KeyTier } from '../contract/index.ts';
import { keyTiers } from './keys.ts';
import { isProfileName } from './profiles.ts';
import { UsageError, type ConformanceOptions } from './run.ts';

export const USAGE = `Usage: gateway-conformance --base-url URL [options]

Checks an implementation of the AI Model Gateway API against its contract (openapi/).

Options:
  --base-url URL         where the implementation listens (required)
  --key TIER=KEY         a key and its tier (${keyTiers.join(', ')}); repeat for each tier
  --profile NAME         core (default): what the interface specification requires
                         full: core and the reference decisions
                         mock: core minus what a stateless mock (Prism) cannot do
  --destructive          also spend each key's daily image quota (keys must be fresh for the day)
  --only NAME            only the checks of an operationId or a family (responses, auth, validation,
                         errors, behaviour, streaming, images, tiers, quota); repeatable, or comma-separated
  --skip NAME            leave out checks named the same way (a check id such as
                         createImage/errors/too-large, or a family, or an operationId)
  --seed N               seed of the generated invalid requests (default 1)
  --timeout MS           per request (default 30000)
  --strict               a skipped check fails the run too (for CI that must check everything)
  --junit FILE           also write JUnit XML (missing folders are created)
  --json FILE            also write the report as JSON
  --html FILE            also write the report as one self-contained page, failures first
  --list                 list the checks (id, profiles, what each verifies) and exit; needs no server
  --quiet                no progress lines
  --version              the suite's version and the contract's
  --help                 this text

Exit status: 0 conforms, 1 a violation was found (or, with --strict, a check was skipped), 2 usage error,
server unreachable or not the gateway, or no check ran.`;

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
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        key: { type: 'string', multiple: true },
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
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const profile = values.profile ?? 'core';
  if (!isProfileName(profile)) throw new UsageError(`--profile must be core, full or mock, not '${profile}'`);
  const asked = { help: values.help ?? false, list: values.list ?? false, version: values.version ?? false };
  if (asked.help || asked.list || asked.version) return { baseUrl: values['base-url'] ?? '', profile, quiet: true, ...asked };
  if (!values['base-url']) throw new UsageError('--base-url is required');
  const keys: Partial<Record<KeyTier, string>> = {};
  for (const pair of values.key ?? []) {
    const match = /^([a-z]+)=(.+)$/.exec(pair);
    if (!match) throw new UsageError(`--key '${pair}' is not TIER=KEY`);
    const [, tier, key] = match as unknown as [string, string, string];
    if (!keyTiers.includes(tier as KeyTier)) throw new UsageError(`--key: unknown tier '${tier}' (${keyTiers.join(', ')})`);
    if (keys[tier as KeyTier]) throw new UsageError(`--key: tier '${tier}' given twice`);
    keys[tier as KeyTier] = key;
  }
  return {
    baseUrl: values['base-url'],
    keys,
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

function list(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean);
}

function integer(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, not '${value}'`);
  return Number(value);
}
