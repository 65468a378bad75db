/**
 * The official `openai` package pointed at a reference server, as the interface specification tells
 * OpenAI-compatible clients to be configured: base URL `{base_url}/v1`, the API key as the SDK's key.
 * Every request the SDK sends is counted, to prove what it retries and what it does not.
 */
import OpenAI from 'openai';

export interface CountedOpenAI {
  openai: OpenAI;
  /** Requests that went out, as `METHOD path`. */
  sent: string[];
}

export function openaiFor(baseUrl: string, apiKey = 'sk-demo-starter'): CountedOpenAI {
  const sent: string[] = [];
  const openai = new OpenAI({
    baseURL: `${baseUrl}/v1`,
    apiKey,
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetch(input, init);
    },
  });
  return { openai, sent };
}

export const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
} as const;
