/**
 * The typed client of the AI model gateway, for browsers and Node: `createGatewayClient` for every
 * operation, `streamChatCompletion`/`collectChatCompletion` for streamed chat, and image helpers.
 */
export { createGatewayClient, apiKeyMiddleware, type GatewayClient, type GatewayClientOptions, type AuthScheme } from './client.ts';
export { GatewayError, isErrorBody } from './errors.ts';
export { streamChatCompletion, type ChatCompletionStreamRequest, type StreamOptions } from './stream.ts';
export { collectChatCompletion, type CollectedChatCompletion } from './collect.ts';
export { imageBytes, imageBlob, editImageFromBytes, type ImageEditFromBytes } from './images.ts';
export { base64ToBytes, bytesToBase64 } from './base64.ts';
export { readEvents } from './sse.ts';
export type * from './types.ts';
