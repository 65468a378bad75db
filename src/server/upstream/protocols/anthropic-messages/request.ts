/** The gateway's chat request as an Anthropic Messages request. */
import type { ChatRequest } from '../../../domain/chat.ts';
import { parametersOf } from '../conversation.ts';
import { unsupported } from '../failures.ts';
import type { Json } from '../read.ts';
import type { UpstreamRequest } from '../types.ts';
import { conversationOf } from './conversation.ts';
import { PROTOCOL } from './name.ts';

/**
 * The `max_tokens` sent when the client gave none. Anthropic requires `max_tokens`; OpenAI's protocols
 * leave it optional, so their clients often send none. 4,096 is the smallest output limit of any Claude
 * model (Claude 3 Haiku's), so no model refuses it as too large, and it is room for an ordinary answer; a
 * longer one ends with finish reason `length`, which the client sees and can ask again with a larger
 * limit.
 */
export const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's reference: "Amount of randomness injected into the response. Ranges from 0.0 to 1.0." */
const MAX_TEMPERATURE = 1;

/**
 * `tool_choice` in Anthropic's terms (`required` is `any`, a named function is `tool`), with
 * `disable_parallel_tool_use` for parallelToolCalls false (not on `none`, where no tool is used).
 */
function toolChoice(request: ChatRequest): Json | undefined {
  const choice = request.toolChoice;
  const single = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...single };
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...single };
  if (choice === 'auto' || request.parallelToolCalls === false) return { type: 'auto', ...single };
  return undefined;
}

/**
 * Structured output is `output_config.format` (a JSON schema). Anthropic has no "any JSON object" mode:
 * its schemas must close every object (`additionalProperties: false`), so json_object has no equivalent.
 */
function outputConfig(format: ChatRequest['responseFormat']): Json | undefined {
  if (format?.type === 'json_schema') return { format: { type: 'json_schema', schema: format.schema ?? { type: 'object' } } };
  if (format?.type === 'json_object') {
    throw unsupported(PROTOCOL, 'it has no JSON-object mode (`response_format` json_object); its structured output takes a JSON schema. Send a json_schema format instead.');
  }
  return undefined;
}

/**
 * `path` is relative to the catalogue's `base_url`, which for Anthropic is the server root (what its SDK
 * takes). Fields Anthropic has no equivalent for and that only ask for best effort (`seed`) are left out.
 *
 * @example
 * toUpstream({ model: 'smart', messages: [{ role: 'user', content: 'Hi' }] }, 'claude-sonnet-4-5', false);
 * // { path: '/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 4096, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] } }
 */
export function toUpstream(request: ChatRequest, model: string, stream: boolean): UpstreamRequest {
  const { system, messages } = conversationOf(request.messages);
  const body: Json = { model, max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS, messages };
  if (system.length > 0) body.system = system;
  if (stream) body.stream = true;
  if (request.temperature != null) {
    if (request.temperature > MAX_TEMPERATURE) {
      throw unsupported(PROTOCOL, `its temperature ranges from 0 to 1 and the request asks for ${request.temperature}. Send a temperature between 0 and 1.`);
    }
    body.temperature = request.temperature;
  }
  const stops = request.stopSequences ?? [];
  if (stops.length > 0) body.stop_sequences = [...stops];
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description !== undefined && { description: tool.function.description }),
      input_schema: parametersOf(tool),
      ...(tool.function.strict === true && { strict: true }),
    }));
    const choice = toolChoice(request);
    if (choice) body.tool_choice = choice;
  }
  const output = outputConfig(request.responseFormat);
  if (output) body.output_config = output;
  return { path: '/v1/messages', body };
}
