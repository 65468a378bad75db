/**
 * The official `@anthropic-ai/sdk` pointed at a reference server as rule 6 of Authentication says: the base
 * URL is the gateway's root (the SDK adds `/v1/messages`), the gateway key as its `apiKey` or `authToken`.
 * Every request it sends is recorded, to prove what went out and what was retried.
 */
import Anthropic from '@anthropic-ai/sdk';

export interface RecordedAnthropic {
  anthropic: Anthropic;
  /** Requests that went out: method, path and the credential headers. */
  sent: Array<{ method: string; path: string; search: string; headers: Record<string, string> }>;
}

/**
 * `apiKey` and `authToken` are how the 1.x SDK takes a key (it sends both as `Authorization: Bearer`);
 * `xApiKey` sends the key in `x-api-key`, as the 0.x SDK and Claude Code with `ANTHROPIC_API_KEY` do.
 */
export type Credential = { apiKey: string } | { authToken: string } | { xApiKey: string };

function credentialOptions(credential: Credential) {
  if ('apiKey' in credential) return { apiKey: credential.apiKey, authToken: null };
  if ('authToken' in credential) return { authToken: credential.authToken, apiKey: null };
  return { apiKey: null, authToken: null, defaultHeaders: { 'x-api-key': credential.xApiKey } };
}

export function anthropicFor(baseUrl: string, credential: Credential = { apiKey: 'sk-demo-economy' }): RecordedAnthropic {
  const sent: RecordedAnthropic['sent'] = [];
  const anthropic = new Anthropic({
    baseURL: baseUrl,
    ...credentialOptions(credential),
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, search: url.search, headers });
      return fetch(input, init);
    },
  });
  return { anthropic, sent };
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather in a city.',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};
