/**
 * The typed client: openapi-fetch over the generated `paths`, so every path, parameter, body and answer is
 * checked by the compiler against the contract. The API key is added by one middleware.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './types.ts';

/** How the key travels: `x-api-key` (every operation) or `Authorization: Bearer` (chat completions only, D14). */
export type AuthScheme = 'x-api-key' | 'bearer';

export interface GatewayClientOptions {
  /** The gateway's address without `/v1`, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** An API key (`sk-…`). Optional: the model listing is public. */
  apiKey?: string;
  /** Default `x-api-key`. */
  auth?: AuthScheme;
  /** A fetch to use instead of `globalThis.fetch` (to count, log or mock requests). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * The client: openapi-fetch's `GET`/`POST` on the gateway's paths. Only `application/json` answers are
 * typed as `data`; streamed chat goes through `streamChatCompletion`.
 */
export type GatewayClient = Client<paths, 'application/json'>;

/**
 * Creates a typed client of the gateway.
 *
 * @example
 *   const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
 *   const { data, error } = await client.POST('/v1/chat/completions', {
 *     body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] },
 *   });
 *   if (error) console.error(error.error);
 *   else console.log(data.choices[0]?.message.content);
 */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
  });
  if (options.apiKey) client.use(apiKeyMiddleware(options.apiKey, options.auth ?? 'x-api-key'));
  return client;
}

/**
 * Sets the key on every request, so that no call has to pass it. `createGatewayClient` installs it; use it
 * directly to add a key to a client made another way.
 *
 * @example
 *   const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080' });
 *   client.use(apiKeyMiddleware('sk-demo-pro', 'bearer'));
 */
export function apiKeyMiddleware(apiKey: string, auth: AuthScheme): Middleware {
  return {
    onRequest({ request }) {
      if (auth === 'bearer') request.headers.set('authorization', `Bearer ${apiKey}`);
      else request.headers.set('x-api-key', apiKey);
      return request;
    },
  };
}

/** True when `value` is a client made by `createGatewayClient` (or any openapi-fetch client). */
export function isGatewayClient(value: GatewayClient | GatewayClientOptions): value is GatewayClient {
  return typeof (value as Partial<GatewayClient>).POST === 'function';
}
