/** The text engine's tasks, as a text worker runs them (engine-worker.ts). */
export { answerChat, completePrompt, countChatTokens } from '../domain/engine/text/index.ts';
