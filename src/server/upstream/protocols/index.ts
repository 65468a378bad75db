/**
 * The text upstream protocols by the name the catalogue gives them (`upstream.protocol`).
 *
 * @example
 * const { path, body } = textProtocols['anthropic-messages'].toUpstream(request, 'claude-sonnet-4-5', true);
 */
import * as anthropicMessages from './anthropic-messages.ts';
import * as openaiChat from './openai-chat.ts';
import * as openaiResponses from './openai-responses.ts';
import type { UpstreamProtocol } from './types.ts';

export type TextProtocolName = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

export const textProtocols: Readonly<Record<TextProtocolName, UpstreamProtocol>> = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  'anthropic-messages': anthropicMessages,
};

export type { UpstreamEvent, UpstreamProtocol, UpstreamRequest } from './types.ts';
export { UNCOUNTED } from './read.ts';
