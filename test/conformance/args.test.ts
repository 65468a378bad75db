import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/conformance/args.ts';
import { UsageError } from '../../src/conformance/run.ts';
import { contextFor } from './helpers/context.ts';

describe('parseCli', () => {
  it('reads every option', () => {
    const options = parseCli([
      '--base-url', 'http://127.0.0.1:8080', '--key', 'starter=sk-a', '--key=pro=sk-b', '--profile', 'full',
      '--destructive', '--only', 'auth,createImage', '--only', 'quota', '--skip', 'createImage/errors/too-large', '--seed', '9', '--junit', 'out.xml', '--json', 'out.json',
    ]);
    expect(options).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080',
      keys: { starter: 'sk-a', pro: 'sk-b' },
      profile: 'full',
      destructive: true,
      only: ['auth', 'createImage', 'quota'],
      skip: ['createImage/errors/too-large'],
      seed: 9,
      junit: 'out.xml',
      json: 'out.json',
    });
  });

  it('reads the options for other contracts: keys without a tier, models, headers, waivers', () => {
    const options = parseCli([
      '--base-url', 'http://x', '--contract', 'openai', '--contract=anthropic', '--key', 'sk-one', '--key', 'sk-two==',
      '--model', 'm-all', '--model', 'anthropic=claude-x', '--header', 'x-portkey-provider: openai', '--header', 'X-Route:a:b',
      '--waive', 'openai/error-object,openai:listModels/auth',
    ]);
    expect(options).toMatchObject({
      contracts: ['openai', 'anthropic'],
      keys: {},
      apiKeys: ['sk-one', 'sk-two=='],
      models: ['m-all'],
      contractModels: { anthropic: ['claude-x'] },
      headers: { 'x-portkey-provider': 'openai', 'x-route': 'a:b' },
      waive: ['openai/error-object', 'openai:listModels/auth'],
    });
  });

  it('defaults to the core profile, seed 1, no keys', () => {
    expect(parseCli(['--base-url', 'http://x'])).toMatchObject({ profile: 'core', seed: 1, keys: {}, destructive: false, only: [], skip: [] });
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'http://x', '--key', 'gold=sk-a'], /unknown tier 'gold'/],
    [['--base-url', 'http://x', '--key', 'pro=a', '--key', 'pro=b'], /given twice/],
    [['--base-url', 'http://x', '--profile', 'strict'], /core, full or mock/],
    [['--base-url', 'http://x', '--contract', 'gemini'], /--contract must be gateway, openai, anthropic/],
    [['--base-url', 'http://x', '--model', 'gemini=m'], /unknown contract 'gemini'/],
    [['--base-url', 'http://x', '--header', 'no colon'], /not 'Name: value'/],
    [['--base-url', 'http://x', '--seed', 'abc'], /whole number/],
    [['--base-url', 'http://x', '--colour'], /Unknown option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCli(argv as string[])).toThrow(UsageError);
    expect(() => parseCli(argv as string[])).toThrow(message);
  });
});

describe('the checks', () => {
  it('live in checks/<family>.ts, one file per family, as their ids say', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../src/conformance/checks/', import.meta.url)).map((f) => f.replace(/\.ts$/, '')).sort();
    const { planChecks } = await import('../../src/conformance/plan.ts');
    const checks = planChecks(contextFor('gateway'));
    expect([...new Set(checks.map((c) => c.family))].sort()).toEqual(files);
    for (const c of checks) expect(c.id.split('/')[1], c.id).toBe(c.family);
  });
});
