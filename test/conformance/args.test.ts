import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/conformance/args.ts';
import { UsageError } from '../../src/conformance/run.ts';

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

  it('defaults to the core profile, seed 1, no keys', () => {
    expect(parseCli(['--base-url', 'http://x'])).toMatchObject({ profile: 'core', seed: 1, keys: {}, destructive: false, only: [], skip: [] });
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'http://x', '--key', 'gold=sk-a'], /unknown tier 'gold'/],
    [['--base-url', 'http://x', '--key', 'sk-a'], /not TIER=KEY/],
    [['--base-url', 'http://x', '--key', 'pro=a', '--key', 'pro=b'], /given twice/],
    [['--base-url', 'http://x', '--profile', 'strict'], /core, full or mock/],
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
    const { Catalogue } = await import('../../src/conformance/catalogue.ts');
    const { KeyRing } = await import('../../src/conformance/keys.ts');
    const { profiles } = await import('../../src/conformance/profiles.ts');
    const { ImageLedger } = await import('../../src/conformance/check.ts');
    const { models } = await import('../../src/server/domain/catalogue.ts');
    const ctx = { baseUrl: 'http://127.0.0.1:1', profile: profiles.full, keys: new KeyRing({ starter: 'sk-a', pro: 'sk-b' }), seed: 1, catalogue: Catalogue.fromListing({ models }), ledger: new ImageLedger(), timeoutMs: 1 };
    const checks = planChecks(ctx);
    expect([...new Set(checks.map((c) => c.family))].sort()).toEqual(files);
    for (const c of checks) expect(c.id.split('/')[1], c.id).toBe(c.family);
  });
});
