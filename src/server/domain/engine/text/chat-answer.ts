/**
 * The chat answer: tool calls when `tool_choice` and the conversation call for them, otherwise text that
 * answers the last user message (or reports the tool results that end the conversation), cut to
 * `max_tokens` exactly.
 */
import { Rng } from '../../../../lib/random.ts';
import { cutAtStop, type ChatAnswer, type ChatMessage, type ChatRequest, type ChatToolCall, type TextForm } from '../../chat.ts';
import { composeAnswer, composeToolAnswer } from './compose.ts';
import { lastUserText, trailingToolResults, viewMessage, type MessageView } from './messages.ts';
import { countPromptTokens, type FunctionDefinition } from './prompt-tokens.ts';
import { seedsOf, type Seeds } from './seed.ts';
import { analyseSubject, type Subject } from './subject.ts';
import { generateArguments } from './tool-arguments.ts';
import { chooseTools } from './tool-choice.ts';
import { countTokens, limitTokens } from './tokens.ts';
import { checkTextSize, checkToolSchema } from './limits.ts';

/** What the engine reads of a request, and its size limits checked (decision D22). */
interface Reading {
  views: MessageView[];
  functions: FunctionDefinition[];
  promptTokens: number;
}

function read(request: ChatRequest): Reading {
  const views = request.messages.map(viewMessage);
  const functions: FunctionDefinition[] = (request.tools ?? []).map((tool) => tool.function as FunctionDefinition);
  checkTextSize(textSize(views, functions));
  for (const fn of functions) if (fn.parameters !== undefined) checkToolSchema(fn.name, fn.parameters);
  const format = request.responseFormat;
  if (format?.type === 'json_schema' && format.schema !== undefined) checkToolSchema(format.name, format.schema, `The json_schema '${format.name}'`);
  return { views, functions, promptTokens: countPromptTokens(views, functions) };
}

/**
 * The prompt tokens a chat request is billed, exactly as `answerChat` counts them, without answering.
 *
 * @example
 * countChatTokens({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello world' }] }); // 9
 */
export function countChatTokens(request: ChatRequest): number {
  return read(request).promptTokens;
}

/** The characters of text a request holds: what the engine reads (decision D22 bounds it). */
function textSize(views: readonly MessageView[], functions: readonly FunctionDefinition[]): number {
  let characters = 0;
  for (const view of views) {
    for (const part of view.textParts) characters += part.length;
    for (const call of view.toolCalls) characters += call.name.length + call.arguments.length;
  }
  for (const fn of functions) characters += fn.name.length + (fn.description?.length ?? 0) + (JSON.stringify(fn.parameters)?.length ?? 0);
  return characters;
}

function lastUserImages(views: readonly MessageView[]): number {
  for (let i = views.length - 1; i >= 0; i--) if (views[i]?.role === 'user') return views[i]?.imageCount ?? 0;
  return 0;
}

/**
 * The seeds of a chat answer: everything in the request that shapes it (see seed.ts), in one form whichever
 * protocol it came in, so that the same conversation gets the same answer from the chat endpoint, Anthropic's
 * Messages and the Responses API: a content of one text part is that text (Anthropic's and the Responses API's
 * requests carry their texts as parts), and no tools is no tools, absent or empty.
 */
function chatSeeds(request: ChatRequest): Seeds {
  const parallel = request.parallelToolCalls ?? true;
  const tools = request.tools?.length ? request.tools : undefined;
  const content: Record<string, unknown> = { model: request.model, messages: seedMessages(request.messages), tools, choice: request.toolChoice, parallel };
  // Only when asked for, so that the answers to every other request keep their seeds.
  if (request.responseFormat && request.responseFormat.type !== 'text') content.format = request.responseFormat;
  return seedsOf({ content, temperature: request.temperature, seed: request.seed });
}

/** The messages as the seed reads them: a content of one text part as its text; copied only when one changes. */
function seedMessages(messages: ChatMessage[]): ChatMessage[] {
  let read: ChatMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!.content;
    if (!Array.isArray(content) || content.length !== 1) continue;
    const part = content[0] as { type?: unknown; text?: unknown };
    if (part.type !== 'text' || typeof part.text !== 'string') continue;
    read ??= messages.slice();
    // Not `{ ...message, content }`: see test/server/hidden-classes.test.ts.
    read[i] = Object.assign({}, messages[i]!, { content: part.text });
  }
  return read ?? messages;
}

function toolCallAnswer(
  calls: readonly FunctionDefinition[],
  subject: Subject,
  request: ChatRequest,
  seed: number,
  promptTokens: number,
): ChatAnswer {
  const rng = new Rng(seed);
  let budget = request.maxTokens ?? Infinity;
  let truncated = false;
  let used = 0;
  const toolCalls: ChatToolCall[] = [];
  for (const fn of calls) {
    const id = `call_${rng.hex24()}`;
    const argumentsText = JSON.stringify(generateArguments(fn.parameters, { subject, rng, tool: fn.name }));
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const nameTokens = countTokens(fn.name);
    budget -= nameTokens;
    const limited = limitTokens(argumentsText, Math.max(budget, 0));
    budget -= limited.tokenCount;
    used += nameTokens + limited.tokenCount;
    // Tool calls are rare and their arguments short: their pieces are made at once.
    toolCalls.push({ id, name: fn.name, arguments: limited.text, argumentPieces: limited.pieces });
    if (limited.truncated) {
      truncated = true;
      break;
    }
  }
  return {
    content: null,
    contentPieces: [],
    toolCalls,
    finishReason: truncated ? 'length' : 'tool_calls',
    stopSequence: null,
    promptTokens,
    // A name is never cut, so only a max_tokens below the first name's length can make `used` exceed it.
    completionTokens: truncated ? Math.min(used, request.maxTokens ?? used) : used,
  };
}

/**
 * Answers a chat completion request, deterministically for a given request and seed. `form` says whether its
 * text is wanted token by token, for a stream, or whole, for an answer sent at once: the answer is the same,
 * only `contentPieces` differs (tool calls' argument pieces are made either way: they are rare and short).
 *
 * @example
 * answerChat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of France?' }] });
 * // { content: "Here's what you should know about the capital of France. …", finishReason: 'stop', … }
 */
export function answerChat(request: ChatRequest, form: TextForm = 'pieces'): ChatAnswer {
  const seeds = chatSeeds(request);
  const { views, functions, promptTokens } = read(request);
  const subject = analyseSubject(lastUserText(views));
  const lastRole = views[views.length - 1]?.role ?? 'user';
  const parallel = request.parallelToolCalls ?? true;

  const calls = chooseTools({ functions, choice: request.toolChoice, lastRole, subject, parallel });
  if (calls.length > 0) return toolCallAnswer(calls, subject, request, seeds.tools, promptTokens);

  const rng = new Rng(seeds.text);
  const prose = () =>
    lastRole === 'tool' ? composeToolAnswer(trailingToolResults(views), subject, rng) : composeAnswer(subject, rng, lastUserImages(views));
  const format = request.responseFormat;
  // Structured output: the same value generator as tool arguments, so the JSON validates against the schema.
  const text =
    format?.type === 'json_schema'
      ? JSON.stringify(generateArguments(format.schema ?? { type: 'object' }, { subject, rng, tool: format.name }))
      : format?.type === 'json_object'
        ? JSON.stringify({ answer: prose() })
        : prose();
  // A stop sequence ends the text where it would begin; max_tokens may end it sooner.
  const stopped = cutAtStop(text, request.stopSequences);
  const limited = limitTokens(stopped.text, request.maxTokens ?? null, form);
  return {
    content: limited.text,
    contentPieces: limited.pieces,
    toolCalls: [],
    finishReason: limited.truncated ? 'length' : 'stop',
    stopSequence: limited.truncated ? null : stopped.sequence,
    promptTokens,
    completionTokens: limited.tokenCount,
  };
}
