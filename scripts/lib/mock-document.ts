/**
 * The document Prism serves: the bundled contract with one mock-only tweak. The tweak lives here, not in
 * openapi/, because it only works around how Prism reads a correct description.
 *
 * Prism 5 (through @stoplight/http-spec) puts a response schema's own `examples[0]` in front of the media
 * type's named examples, and answers the first. Our `Error` schema carries `examples` for the docs, so every
 * error answer would be `{"error": "Invalid API Key."}`, a 429 included. Wrapping the schema in `allOf`
 * hides its top-level `examples` from Prism without changing what it accepts, so Prism answers each
 * response's first named example, as the docs show it; `Prefer: example=<name>` picks the others.
 */

type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A copy of `spec` in which every response media type with named `examples` has its schema wrapped in
 * `allOf`, so that Prism answers the first named example. The input is not modified.
 *
 * @example
 *   const doc = mockDocument(JSON.parse(readFileSync('generated/openapi.json', 'utf8')));
 *   writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
 */
export function mockDocument<T extends object>(spec: T): T {
  const copy = structuredClone(spec) as T & { paths?: Record<string, Json>; components?: { responses?: Record<string, Json> } };
  const responses: Json[] = Object.values(copy.components?.responses ?? {});
  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method] as { responses?: Record<string, Json> } | undefined;
      responses.push(...Object.values(operation?.responses ?? {}));
    }
  }
  for (const response of responses) {
    // A `$ref` response is one of components.responses, handled above.
    const content = (response.content ?? {}) as Record<string, Json>;
    for (const media of Object.values(content)) {
      if (media.schema && media.examples && !('example' in media)) media.schema = { allOf: [media.schema] };
    }
  }
  return copy;
}
