/**
 * The chat as the gateway speaks it inside, whoever answers: the request every client protocol is read into
 * and every source of answers takes (the built-in engine, an upstream in its protocol), the answer every
 * source gives back, a prompt's completion beside them, and the one rule of an answer's text they all keep:
 * the cut at a stop sequence.
 */
import type { components } from '../../../generated/schema.d.ts';

export type ChatMessage = components['schemas']['ChatMessage'];
export type FunctionTool = components['schemas']['FunctionTool'];
export type ToolChoice = components['schemas']['ToolChoice'];

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number | null;
  seed?: number | null;
  maxTokens?: number | null;
  tools?: FunctionTool[];
  toolChoice?: ToolChoice;
  /** OpenAI's `parallel_tool_calls`; true when absent. */
  parallelToolCalls?: boolean | null;
  /** Texts that end a text answer just before the first of them it contains (Anthropic's `stop_sequences`). */
  stopSequences?: readonly string[];
  /** The form of a text answer: prose (the default), a JSON object, or JSON valid against a schema. */
  responseFormat?: ResponseFormat;
}

/** Structured output (decision D29): chat's `response_format` and the Responses API's `text.format`. */
export type ResponseFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name: string; schema?: unknown };

export interface ChatToolCall {
  id: string;
  name: string;
  /** JSON text; with finishReason `tool_calls` it validates against the function's `parameters`. */
  arguments: string;
  /** Pieces that concatenate to `arguments`, one per token. */
  argumentPieces: readonly string[];
}

export interface ChatAnswer {
  /** null when the answer is only tool calls */
  content: string | null;
  /**
   * Pieces that concatenate to exactly `content`: one per token when the answer was asked for in pieces (to
   * be streamed), the whole content in one piece when it was asked for whole (`TextForm`).
   */
  contentPieces: readonly string[];
  toolCalls: ChatToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** The stop sequence the text was cut at (finishReason `stop`), or null. */
  stopSequence: string | null;
  promptTokens: number;
  completionTokens: number;
}

/**
 * How an answer's text is wanted: `pieces`, one per token, for a stream that sends it token by token; `whole`,
 * in one piece, for an answer sent at once, whose text is then never split into tokens it does not need.
 */
export type TextForm = 'pieces' | 'whole';

/** The text completion of `POST /v1/generation/prompt`: a continuation of one prompt. */
export interface PromptRequest {
  model: string;
  prompt: string;
  temperature?: number | null;
  seed?: number | null;
  maxTokens?: number | null;
}

export interface PromptAnswer {
  /** Sent whole: a text completion is not streamed, so it has no token pieces. */
  text: string;
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
}

/**
 * The text cut just before the earliest stop sequence it contains (the first listed, of two at one place).
 *
 * @example
 * cutAtStop('One. Two. Three.', ['Three', 'Two']); // { text: 'One. ', sequence: 'Two' }
 */
export function cutAtStop(text: string, sequences: readonly string[] | undefined): { text: string; sequence: string | null } {
  let at = -1;
  let sequence: string | null = null;
  for (const candidate of sequences ?? []) {
    if (candidate === '') continue;
    const index = text.indexOf(candidate);
    if (index >= 0 && (at < 0 || index < at)) {
      at = index;
      sequence = candidate;
    }
  }
  return sequence === null ? { text, sequence } : { text: text.slice(0, at), sequence };
}
