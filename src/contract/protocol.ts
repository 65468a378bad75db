/**
 * What a description says of itself for the conformance suite (`x-protocol` at its root): its name, the
 * reference a report cites, and the rules it states that no schema can say. The checks are the same for every
 * description; which of them run, how strictly, and what a failure cites come from here.
 */
import type { OpenApiDocument } from './document.ts';
import { resolvePointer } from './refs.ts';

export type RuleLevel = 'core' | 'reference';

export interface ProtocolRule {
  /** Its id in reports and for `--waive`: `<protocol>/<rule>`, e.g. `openai/error-object`. */
  id: string;
  /** `core`: checked in every profile; `reference`: only in the full profile. */
  level: RuleLevel;
  /** The rule in words, or the decision it is (`D21`). */
  cite: string;
  /** The page of the vendor's reference that states it. */
  url?: string;
  /** A size the rule names (`body-limit`). */
  bytes?: number;
}

interface RawRule {
  level?: RuleLevel;
  cite: string;
  url?: string;
  bytes?: number;
}

interface RawProtocol {
  name: string;
  title: string;
  reference: string;
  exactStatuses?: boolean;
  decisions?: boolean;
  rules: Record<string, RawRule>;
}

export class Protocol {
  readonly name: string;
  readonly title: string;
  /** The vendor's API reference (an absolute URL), or the path of this contract's docs on the server (`/docs`). */
  readonly reference: string;
  /** Error statuses are the vendor's own: an invalid request must answer exactly the documented one, in every profile. */
  readonly exactStatuses: boolean;
  /** The description marks its reference decisions (`x-conformance: reference`); elsewhere there are none. */
  readonly decisions: boolean;
  readonly #rules: Map<string, ProtocolRule>;

  constructor(raw: RawProtocol) {
    this.name = raw.name;
    this.title = raw.title;
    this.reference = raw.reference;
    this.exactStatuses = raw.exactStatuses ?? false;
    this.decisions = raw.decisions ?? false;
    this.#rules = new Map(
      Object.entries(raw.rules).map(([key, r]) => [key, { id: `${raw.name}/${key}`, level: r.level ?? 'core', cite: r.cite, ...(r.url ? { url: r.url } : {}), ...(r.bytes ? { bytes: r.bytes } : {}) }]),
    );
  }

  /** The rule stated under `key`, or undefined when this description does not state it. */
  rule(key: string): ProtocolRule | undefined {
    return this.#rules.get(key);
  }

  /** Every rule, in the order the description lists them. */
  rules(): ProtocolRule[] {
    return [...this.#rules.values()];
  }
}

/** The `x-protocol` of a description, or undefined when it has none (the admin API). */
export function readProtocol(document: OpenApiDocument): Protocol | undefined {
  const raw = document['x-protocol'] as RawProtocol | undefined;
  return raw ? new Protocol(raw) : undefined;
}

/**
 * The rule a place of the description states (`x-rule`): that of the place itself, else of the nearest
 * object above it. Places are JSON pointers (`/components/schemas/OpenAIModel/properties/created/type`).
 *
 * @example
 * ruleAt(spec, '/components/schemas/OpenAIErrorResponse/properties/error/required'); // 'error-object'
 */
export function ruleAt(document: OpenApiDocument, pointer: string): string | undefined {
  const tokens = pointer.split('/').slice(1);
  for (let n = tokens.length; n >= 1; n--) {
    const node = resolvePointer(document, `/${tokens.slice(0, n).join('/')}`) as { 'x-rule'?: unknown } | undefined;
    if (node && typeof node === 'object' && typeof node['x-rule'] === 'string') return node['x-rule'];
  }
  return undefined;
}

