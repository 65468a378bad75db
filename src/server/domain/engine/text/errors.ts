/**
 * The one error the engine throws: a request that is well-formed but cannot be answered as asked (for
 * example a `tool_choice` that names a function missing from `tools`). It is the domain's invalid_request,
 * which the server answers with 400.
 */
import { GatewayError } from '../../errors.ts';

export class TextEngineError extends GatewayError {
  override readonly name = 'TextEngineError';

  constructor(message: string) {
    super('invalid_request', message);
  }
}
