/**
 * The engine's answers to the golden requests, computed now (not from the cache: the modules
 * themselves), in the form stored in `golden-answers.json`.
 */
import { answerChat } from '../../src/server/domain/engine/text/chat-answer.ts';
import { completePrompt } from '../../src/server/domain/engine/text/prompt.ts';
import { GOLDEN_CHAT_REQUESTS, GOLDEN_PROMPT_REQUESTS } from './golden-requests.ts';

export interface GoldenAnswers {
  chat: unknown[];
  prompt: unknown[];
}

function attempt(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (error) {
    return { error: String(error) };
  }
}

/** Chat answers in pieces, one per token, as a stream sends them: the form that holds the most. */
export function goldenAnswers(): GoldenAnswers {
  return {
    chat: GOLDEN_CHAT_REQUESTS.map((request) => attempt(() => answerChat(request, 'pieces'))),
    prompt: GOLDEN_PROMPT_REQUESTS.map((request) => attempt(() => completePrompt(request))),
  };
}
