/**
 * The one error the engine throws: a request that is well-formed but cannot be answered as asked (for
 * example a `tool_choice` that names a function missing from `tools`). The server answers it with 400.
 */
export class TextEngineError extends Error {
  override readonly name = 'TextEngineError';
}
