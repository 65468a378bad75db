/**
 * The operator's catalogue file (`GATEWAY_CATALOGUE`, `--catalogue`): YAML or JSON in the listing's shape,
 * `{"models": [...]}`, each model as `GET /v1/models` shows it plus where its answers come from (one upstream,
 * or several with the routing between them). Read once at
 * start and checked whole, by its JSON Schema (catalogue-file.schema.json, which takes the model's fields
 * from the contract) and by what a schema cannot say; a file that is wrong stops the start, saying where
 * and why.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { components } from '../../../generated/schema.d.ts';
import { compileInline, describeErrors } from '../../contract/index.ts';
import { packageFile } from '../../package-root.ts';

type Model = components['schemas']['Model'];

/** The file's JSON Schema, kept beside this module as a file of its own (editors and the docs point at it). */
const SCHEMA_PATH = 'src/server/catalogue/catalogue-file.schema.json';

export type UpstreamProtocolName = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'openai-images';

/** An upstream as the file gives it. */
export interface UpstreamEntry {
  protocol: UpstreamProtocolName;
  base_url: string;
  api_key_env?: string;
  model: string;
  timeouts?: { connect_ms?: number; first_byte_ms?: number; idle_ms?: number };
  /** What the gateway calls it (required among `upstreams`; a lone `upstream`'s is its host). */
  name?: string;
  /** Its share with strategy `weighted`. */
  weight?: number;
}

/** The failures a routed model may try again after (decision D40). */
export type RetriableFailure = 'connect_error' | 'timeout' | 'rate_limited' | 'server_error';

/** How a model's upstreams are used, as the file gives it (defaults in routing/policy.ts). */
export interface RoutingEntry {
  strategy?: 'fallback' | 'weighted';
  attempts?: number;
  retry_on?: RetriableFailure[];
  backoff?: { base_ms?: number; max_ms?: number };
  retry_after_cap_ms?: number;
  total_ms?: number;
  cooldown?: { failures?: number; window_ms?: number; duration_ms?: number };
}

export interface CatalogueEntry extends Model {
  upstream?: UpstreamEntry;
  upstreams?: UpstreamEntry[];
  routing?: RoutingEntry;
}

/** An upstream with its name: each of a model's, in the file's order. */
export type NamedUpstream = UpstreamEntry & { name: string };

/**
 * A model's upstreams, named (none: the built-in engine answers it).
 *
 * @example
 *   for (const upstream of upstreamsOf(entry)) console.log(upstream.name, upstream.base_url);
 */
export function upstreamsOf(entry: CatalogueEntry): NamedUpstream[] {
  if (entry.upstreams) return entry.upstreams as NamedUpstream[];
  if (!entry.upstream) return [];
  return [Object.assign({}, entry.upstream, { name: entry.upstream.name ?? new URL(entry.upstream.base_url).host })];
}

/** The file cannot be used: where, and why. */
export class CatalogueFileError extends Error {}

/** The endpoints an image upstream serves, and those a text upstream does. */
const IMAGE_ENDPOINTS = ['/v1/generation/image', '/v1/generation/image/edit'];
const TEXT_ENDPOINTS = ['/v1/chat/completions', '/v1/generation/prompt', '/v1/responses', '/v1/messages'];

/**
 * The models of a catalogue file, checked. `env` is where upstream keys are looked for (each named variable
 * must be set); their values are not kept here.
 *
 * @example
 *   const entries = readCatalogueFile('catalogue.yaml', process.env);
 */
export function readCatalogueFile(path: string, env: Record<string, string | undefined>): CatalogueEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CatalogueFileError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let document: unknown;
  try {
    // YAML 1.2 reads JSON as well.
    document = parse(text, { prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    throw new CatalogueFileError(`${path}: is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const validate = compileInline(JSON.parse(readFileSync(packageFile(SCHEMA_PATH), 'utf8')) as object);
  if (!validate(document)) throw new CatalogueFileError(`${path}: ${describeErrors(validate.errors, 5)}`);
  const entries = (document as { models: CatalogueEntry[] }).models;
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    const where = `${path}: /models/${i} (${entry.id})`;
    if (seen.has(entry.id)) throw new CatalogueFileError(`${where}: the id is given twice`);
    seen.add(entry.id);
    checkRouting(entry, where);
    for (const upstream of upstreamsOf(entry)) {
      const which = entry.upstreams ? `upstream '${upstream.name}'` : 'upstream';
      const served = upstream.protocol === 'openai-images' ? IMAGE_ENDPOINTS : TEXT_ENDPOINTS;
      const other = entry.endpoints.filter((e) => !served.includes(e));
      if (other.length > 0) {
        throw new CatalogueFileError(`${where}: an ${upstream.protocol} upstream cannot serve ${other.join(', ')} (it serves ${served.join(', ')})`);
      }
      if (upstream.api_key_env !== undefined && !env[upstream.api_key_env]) {
        throw new CatalogueFileError(`${where}: its ${which}'s key variable ${upstream.api_key_env} is not set`);
      }
    }
  }
  return entries;
}

/** What the schema cannot say of a model's upstreams and routing. */
function checkRouting(entry: CatalogueEntry, where: string): void {
  if (entry.upstream && entry.upstreams) throw new CatalogueFileError(`${where}: give either upstream (one) or upstreams (several), not both`);
  if (entry.routing && !entry.upstream && !entry.upstreams) throw new CatalogueFileError(`${where}: routing needs an upstream or upstreams`);
  const names = new Set<string>();
  for (const upstream of entry.upstreams ?? []) {
    if (names.has(upstream.name!)) throw new CatalogueFileError(`${where}: the upstream name '${upstream.name}' is given twice`);
    names.add(upstream.name!);
  }
  const weighted = upstreamsOf(entry).filter((u) => u.weight !== undefined);
  if (weighted.length > 0 && entry.routing?.strategy !== 'weighted') {
    throw new CatalogueFileError(`${where}: upstream '${weighted[0]!.name}' has a weight, which only strategy: weighted uses (set routing.strategy: weighted, or remove the weight)`);
  }
  const backoff = entry.routing?.backoff;
  if (backoff?.base_ms !== undefined && backoff.max_ms !== undefined && backoff.max_ms < backoff.base_ms) {
    throw new CatalogueFileError(`${where}: routing.backoff.max_ms (${backoff.max_ms}) is less than base_ms (${backoff.base_ms})`);
  }
}
