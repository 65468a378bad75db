/**
 * The billing headers Prism sends, made to agree with the body it sends. A header has one example for every
 * operation (`x-gateway-billed-tokens: 16`), and Prism sends it beside whatever body it answers, so a
 * frontend would see a chat completion of 98 tokens billed 16. In the document Prism serves, each
 * operation's `x-gateway-multiplier` and `x-gateway-billed-tokens` examples are instead computed from its
 * default answer (the first example of its 2xx JSON answer), as the reference computes them
 * (`billingHeaders`): the model's multiplier from the catalogue, and ceil(total tokens × multiplier).
 *
 * Prism answers every example of a status with the same headers: those agree with the default answer.
 */
import { followRefs } from '../../src/contract/refs.ts';
import { billingHeaders } from '../../src/server/http/responses.ts';
import type { Model } from '../../src/server/domain/catalogue.ts';

type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const BILLING = ['x-gateway-multiplier', 'x-gateway-billed-tokens'];

/** Total tokens of an answer's usage: OpenAI's `total_tokens`, or Anthropic's input plus output. */
export function totalTokens(body: unknown): number | undefined {
  const usage = (body as { usage?: Record<string, unknown> } | undefined)?.usage;
  if (!usage) return undefined;
  if (typeof usage.total_tokens === 'number') return usage.total_tokens;
  if (typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number') return usage.input_tokens + usage.output_tokens;
  return undefined;
}

/**
 * The billing headers of an answer body, as the reference sends them with it: `undefined` when the body
 * names no model of `catalogue` or has no usage.
 *
 * @example
 * billingFor({ model: 'gpt-4o-mini', usage: { total_tokens: 98 } }, models); // { 'x-gateway-multiplier': '0.5', 'x-gateway-billed-tokens': '49' }
 */
export function billingFor(body: unknown, catalogue: readonly Model[]): Record<string, string> | undefined {
  const model = catalogue.find((m) => m.id === (body as { model?: unknown } | undefined)?.model);
  const total = totalTokens(body);
  return model && total !== undefined ? billingHeaders(model, total) : undefined;
}

/**
 * A copy of `spec` whose 2xx answers with billing headers carry examples computed from their default JSON
 * example. The input is not modified.
 */
export function withBillingExamples<T extends object>(spec: T): T {
  const copy = structuredClone(spec) as T & { paths?: Record<string, Json>; components: Json };
  const components = copy.components as { examples?: Record<string, Json>; responses?: Record<string, Json>; headers?: Record<string, Json> };
  const deref = (value: unknown): Json => followRefs<Json>(copy, value);
  const catalogue = (components.examples?.ListModelsResponseExample?.value as { models: Model[] }).models;

  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method] as { responses?: Record<string, Json> } | undefined;
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (!/^2/.test(status) || response.$ref) continue;
        const headers = response.headers as Record<string, Json> | undefined;
        if (!headers || !BILLING.some((name) => name in headers)) continue;
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        const first = Object.values((media?.examples ?? {}) as Record<string, Json>)[0];
        const billing = first && billingFor(deref(first).value, catalogue);
        if (!billing) continue;
        for (const name of BILLING) {
          if (!(name in headers)) continue;
          const header = { ...deref(headers[name]) };
          header.example = Number(billing[name]);
          headers[name] = header;
        }
      }
    }
  }
  return copy;
}
