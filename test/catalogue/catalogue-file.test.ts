/**
 * The operator's catalogue file: read as YAML or JSON, checked whole at start, every fault named with the
 * file and the place; the example catalogues of the README are valid; the catalogue built from a file lists
 * its models (never their upstreams) and applies the same rules as the built-in one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { builtInEntries, createCatalogue } from '../../src/server/catalogue/catalogue.ts';
import { CatalogueFileError, readCatalogueFile, upstreamsOf, type CatalogueEntry } from '../../src/server/catalogue/catalogue-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes `text` to a file of its own and returns its path. */
function file(text: string, extension = 'yaml'): string {
  const path = join(dir, `catalogue-${files++}.${extension}`);
  writeFileSync(path, text);
  return path;
}

const chat: CatalogueEntry = {
  id: 'house-model',
  name: 'House model',
  provider: 'OpenAI',
  category: 'Chat',
  description: 'A chat model.',
  endpoints: ['/v1/chat/completions', '/v1/messages'],
  tier: 'starter',
  multiplier: 0.5,
};
const upstream: NonNullable<CatalogueEntry['upstream']> = { protocol: 'openai-chat', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY', model: 'gpt-4o-mini' };
const env = { OPENAI_API_KEY: 'sk-test' };

/** The error a file gives, as its message. */
function faultOf(path: string, environment: Record<string, string | undefined> = env): string {
  try {
    readCatalogueFile(path, environment);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueFileError);
    return (error as Error).message;
  }
  throw new Error(`${path} was read without a fault`);
}

describe('the catalogue file', () => {
  it('is read as YAML or as JSON, each entry a listed model with or without an upstream', () => {
    const yaml = file(`models:\n  - id: house-model\n    name: House model\n    provider: OpenAI\n    category: Chat\n    description: A chat model.\n    endpoints: [/v1/chat/completions]\n    tier: starter\n    multiplier: 0.5\n    upstream: { protocol: openai-chat, base_url: "https://api.openai.com/v1", api_key_env: OPENAI_API_KEY, model: gpt-4o-mini }\n`);
    expect(readCatalogueFile(yaml, env)).toEqual([{ ...chat, endpoints: ['/v1/chat/completions'], upstream }]);
    const json = file(JSON.stringify({ models: [chat] }), 'json');
    expect(readCatalogueFile(json, env)).toEqual([chat]);
  });

  it('names the file and the place of each fault', () => {
    expect(faultOf(join(dir, 'missing.yaml'))).toBe(`${join(dir, 'missing.yaml')}: cannot be read (ENOENT)`);
    expect(faultOf(file('models: [\n'))).toMatch(/: is not YAML or JSON: /);
    expect(faultOf(file('{}'))).toMatch(/: \(root\) must have required property 'models'/);
    expect(faultOf(file(JSON.stringify({ models: [{ ...chat, tier: 'gold' }] })))).toMatch(/: \/models\/0\/tier must be one of "free", "starter", "economy", "pro", "ultimate"/);
    expect(faultOf(file(JSON.stringify({ models: [{ ...chat, price: 3 }] })))).toMatch(/: \/models\/0 has unknown property 'price'/);
    expect(faultOf(file(JSON.stringify({ models: [{ ...chat, upstream: { ...upstream, protocol: 'gemini' } }] })))).toMatch(/\/models\/0\/upstream\/protocol must be one of "openai-chat", "openai-responses", "anthropic-messages", "openai-images"/);
    expect(faultOf(file(JSON.stringify({ models: [{ ...chat, upstream: { ...upstream, base_url: 'api.openai.com' } }] })))).toMatch(/\/models\/0\/upstream\/base_url must match pattern/);
    expect(faultOf(file(JSON.stringify({ models: [{ ...chat, upstream: { ...upstream, api_key: 'sk-in-the-file' } }] })))).toMatch(/\/models\/0\/upstream has unknown property 'api_key'/);
  });

  it('refuses what a schema cannot say: a repeated id, an endpoint its upstream cannot serve, a key variable not set', () => {
    const twice = file(JSON.stringify({ models: [chat, chat] }));
    expect(faultOf(twice)).toBe(`${twice}: /models/1 (house-model): the id is given twice`);
    const images = file(JSON.stringify({ models: [{ ...chat, upstream: { ...upstream, protocol: 'openai-images' } }] }));
    expect(faultOf(images)).toBe(
      `${images}: /models/0 (house-model): an openai-images upstream cannot serve /v1/chat/completions, /v1/messages (it serves /v1/generation/image, /v1/generation/image/edit)`,
    );
    const keyless = file(JSON.stringify({ models: [{ ...chat, upstream }] }));
    expect(faultOf(keyless, {})).toBe(`${keyless}: /models/0 (house-model): its upstream's key variable OPENAI_API_KEY is not set`);
    // The message names the variable, never a value.
    expect(faultOf(keyless, { OPENAI_API_KEY: '' })).not.toContain('sk-');
  });

  it.each(['openai', 'anthropic', 'local', 'failover'])('examples/catalogues/%s.yaml (the README\'s) is valid', (name) => {
    const entries = readCatalogueFile(join(root, 'examples', 'catalogues', `${name}.yaml`), { OPENAI_API_KEY: 'sk-a', ANTHROPIC_API_KEY: 'sk-b', AZURE_OPENAI_API_KEY: 'az', ANTHROPIC_API_KEY_2: 'sk-c' });
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.every((e) => upstreamsOf(e).length > 0 || e.id === 'llama-3.1-8b-instruct')).toBe(true);
  });
});

describe('several upstreams of a model (D40)', () => {
  const named = (name: string, extra: Record<string, unknown> = {}) => ({ ...upstream, name, ...extra });

  it('reads upstreams and routing; a lone upstream is named by its host', () => {
    const routing = { strategy: 'weighted', attempts: 3, retry_on: ['connect_error', 'rate_limited'], backoff: { base_ms: 100, max_ms: 1000 }, retry_after_cap_ms: 5000, total_ms: 60000, cooldown: { failures: 2, window_ms: 10000, duration_ms: 5000 } };
    const entries = readCatalogueFile(file(JSON.stringify({ models: [{ ...chat, upstreams: [named('a', { weight: 3 }), named('b', { protocol: 'anthropic-messages', base_url: 'https://api.anthropic.com' })], routing }, { ...chat, id: 'single', upstream, routing: { attempts: 2 } }] })), env);
    expect(upstreamsOf(entries[0]!).map((u) => [u.name, u.protocol, u.weight])).toEqual([['a', 'openai-chat', 3], ['b', 'anthropic-messages', undefined]]);
    expect(entries[0]!.routing).toEqual(routing);
    expect(upstreamsOf(entries[1]!)).toEqual([{ ...upstream, name: 'api.openai.com' }]);
    // Neither the upstreams nor the routing are the listing's.
    const listing = createCatalogue(entries).listing.toString();
    for (const word of ['upstreams', 'routing', 'api.openai.com', 'weight']) expect(listing).not.toContain(word);
  });

  it('names the place of each fault', () => {
    const model = (extra: Record<string, unknown>) => file(JSON.stringify({ models: [{ ...chat, ...extra }] }));
    expect(faultOf(model({ upstreams: [upstream] }))).toMatch(/\/models\/0\/upstreams\/0 must have required property 'name'/);
    expect(faultOf(model({ upstreams: [named('a'), named('a')] }))).toMatch(/\(house-model\): the upstream name 'a' is given twice/);
    expect(faultOf(model({ upstream, upstreams: [named('a')] }))).toMatch(/give either upstream \(one\) or upstreams \(several\), not both/);
    expect(faultOf(model({ routing: { attempts: 2 } }))).toMatch(/routing needs an upstream or upstreams/);
    expect(faultOf(model({ upstreams: [named('a', { weight: 2 }), named('b')] }))).toMatch(/upstream 'a' has a weight, which only strategy: weighted uses/);
    expect(faultOf(model({ upstreams: [named('a')], routing: { strategy: 'random' } }))).toMatch(/\/models\/0\/routing\/strategy must be one of "fallback", "weighted"/);
    expect(faultOf(model({ upstreams: [named('a')], routing: { retry_on: ['teapot'] } }))).toMatch(/\/models\/0\/routing\/retry_on\/0 must be one of/);
    expect(faultOf(model({ upstreams: [named('a')], routing: { attempts: 11 } }))).toMatch(/\/models\/0\/routing\/attempts must be <= 10/);
    expect(faultOf(model({ upstreams: [named('a')], routing: { backoff: { base_ms: 500, max_ms: 100 } } }))).toMatch(/routing\.backoff\.max_ms \(100\) is less than base_ms \(500\)/);
    expect(faultOf(model({ upstreams: [named('a', { name: 'a b' })] }))).toMatch(/\/models\/0\/upstreams\/0\/name must match pattern/);
    expect(faultOf(model({ upstreams: [named('a'), named('img', { protocol: 'openai-images' })] }))).toMatch(/an openai-images upstream cannot serve \/v1\/chat\/completions/);
    expect(faultOf(model({ upstreams: [named('a'), named('b', { api_key_env: 'OTHER_KEY' })] }))).toMatch(/its upstream 'b''s key variable OTHER_KEY is not set/);
  });
});

describe('a catalogue', () => {
  it('lists its models without their upstreams', () => {
    const catalogue = createCatalogue([{ ...chat, upstream }, { ...chat, id: 'engine-model' }]);
    expect(JSON.parse(catalogue.listing.toString())).toEqual({ models: [chat, { ...chat, id: 'engine-model' }] });
    expect(catalogue.listing.toString()).not.toContain('OPENAI_API_KEY');
  });

  it('without an image model, refuses image requests saying so', () => {
    const catalogue = createCatalogue([chat]);
    expect(() => catalogue.modelFor('house-model', '/v1/generation/image', 'ultimate')).toThrow("Model 'house-model' does not support image generation. No model of this gateway makes images.");
    expect(() => catalogue.editModel('ultimate')).toThrow('No model of this gateway edits images: none lists /v1/generation/image/edit in GET /v1/models.');
    expect(() => catalogue.modelFor('house-model', '/v1/responses', 'ultimate')).toThrow("Model 'house-model' does not support /v1/responses. No model of this gateway offers it.");
  });

  it('edits with the first model that offers edits, within the key\'s tier', () => {
    const catalogue = createCatalogue(builtInEntries());
    expect(catalogue.editModel('starter').id).toBe('image-gen');
    const expensive = createCatalogue([{ ...chat, id: 'painter', category: 'Image', endpoints: ['/v1/generation/image', '/v1/generation/image/edit'], tier: 'pro' }]);
    expect(() => expensive.editModel('starter')).toThrow("Model 'painter' requires the 'pro' tier; this key's tier is 'starter'.");
  });
});
