/**
 * Named types of the gateway's bodies, taken from the generated OpenAPI types so that none is written by
 * hand: when the contract changes, `npm run generate` changes these too.
 */
import type { components, operations, paths } from '../../generated/schema.d.ts';

type Schemas = components['schemas'];

export type { paths, components, operations };

export type ChatCompletionRequest = Schemas['ChatCompletionRequest'];
export type ChatMessage = Schemas['ChatMessage'];
export type ChatCompletion = Schemas['ChatCompletion'];
export type ChatCompletionMessage = Schemas['ChatCompletionMessage'];
export type ChatCompletionChunk = Schemas['ChatCompletionChunk'];
export type FunctionTool = Schemas['FunctionTool'];
export type ToolCall = Schemas['ToolCall'];
export type FinishReason = Schemas['FinishReason'];
export type Usage = Schemas['Usage'];
export type TextCompletionRequest = Schemas['TextCompletionRequest'];
export type TextCompletion = Schemas['TextCompletion'];
export type ImageGenerationRequest = Schemas['ImageGenerationRequest'];
export type ImageEditRequest = Schemas['ImageEditRequest'];
export type ImageResult = Schemas['ImageResult'];
export type Model = Schemas['Model'];
export type ModelCollection = Schemas['ModelCollection'];
export type Tier = Schemas['Tier'];
/** Every error answer: `{"error": "<message>"}`. */
export type ErrorBody = Schemas['Error'];
