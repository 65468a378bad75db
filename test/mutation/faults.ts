/**
 * The deliberate faults of the mutation harness: each breaks one rule of the contract, and the conformance
 * suite must notice every one. Most are proxy faults (`proxy`): they change what passes between the suite and
 * an unmodified server, so they would work in front of any implementation. The few that need the server's
 * state (a tier not enforced, a quota off by one, …) wrap the store or the services the test passes to
 * `buildApp` (`server`), the app's normal way of being built: production code has no switch for them.
 */
import { utcDay } from '../../src/server/domain/day.ts';
import type { GatewayOptions } from '../../src/server/app.ts';
import type { ApiKeyRecord, Store } from '../../src/server/domain/store/index.ts';
import { json, type Exchange, type Fault, type ProxiedRequest, type ProxiedResponse, type StreamEvent } from './proxy.ts';

/** A fault that needs the server's state: options for `buildApp`, made around the store the test gives it. */
export type ServerFault = (store: Store) => Pick<GatewayOptions, 'store' | 'services'>;

export interface FaultDefinition {
  /** What the fault breaks, in a few words. */
  breaks: string;
  proxy?: Fault;
  server?: ServerFault;
  /**
   * The vendor protocol whose rule it breaks: the suite must also catch it against that protocol's
   * description in the core profile (a rule a vendor states is core).
   */
  protocol?: 'openai' | 'anthropic';
}

/** A key the server accepts, for the faults that let a request in that should be refused. */
export const VALID_KEY = 'sk-demo-ultimate';
/** The keys the test gives the suite (and the server accepts). */
export const KNOWN_KEYS = ['sk-demo-starter', 'sk-demo-economy', 'sk-demo-pro', 'sk-demo-ultimate'];

const CHAT = '/v1/chat/completions';
const MESSAGES = '/v1/messages';
const COUNT_TOKENS = '/v1/messages/count_tokens';
const RESPONSES = '/v1/responses';

function pathOf(request: ProxiedRequest): string {
  return request.url.split('?')[0]!;
}

/** The request's JSON body, changed by `edit` (a body that is not a JSON object is left alone). */
function editBody(request: ProxiedRequest, edit: (body: Record<string, unknown>) => void): void {
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  edit(body as Record<string, unknown>);
  request.body = Buffer.from(JSON.stringify(body));
}

/** The answer's JSON body, changed by `edit` (an answer that is not JSON is left alone). */
function editAnswer(response: ProxiedResponse, edit: (body: Record<string, unknown>) => unknown): void {
  if (!(response.headers['content-type'] ?? '').includes('json')) return;
  const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  const changed = edit(body) ?? body;
  response.body = Buffer.from(JSON.stringify(changed));
  delete response.headers['content-length'];
}

/** A stream rewrite of one JSON event at a time: `edit` changes the parsed data (its index among the events given). */
function eachData(edit: (data: Record<string, unknown>, index: number) => void): Fault['stream'] {
  return eachEvent((event, i) => {
    const data = messageEventOf(event) as Record<string, unknown> | undefined;
    if (!data) return [event.frame];
    const before = JSON.stringify(data);
    edit(data, i);
    const after = JSON.stringify(data);
    return [after === before ? event.frame : event.frame.replace(/^data: .*$/m, `data: ${after}`)];
  });
}

/** The same answer for JSON and for streams: `edit` a usage object wherever one is (answer, chunk, final response). */
function editUsage(edit: (usage: Record<string, number>) => void): Pick<Fault, 'response' | 'stream'> {
  const visit = (node: unknown) => {
    const usage = (node as { usage?: unknown } | undefined)?.usage;
    if (usage && typeof usage === 'object') edit(usage as Record<string, number>);
    const response = (node as { response?: unknown } | undefined)?.response;
    if (response && typeof response === 'object') visit(response);
  };
  return {
    response: (response) => response.status === 200 && editAnswer(response, (body) => void visit(body)),
    stream: eachData((data) => visit(data)),
  };
}

/** Changes only answers with this status. */
function onStatus(status: number, change: (response: ProxiedResponse) => void): Fault['response'] {
  return (response) => {
    if (response.status === status) change(response);
  };
}

/** The `error` message of an answer, or ''. */
function errorOf(response: ProxiedResponse): string {
  try {
    return String((JSON.parse(response.body.toString('utf8')) as { error?: unknown }).error ?? '');
  } catch {
    return '';
  }
}

function withMessage(message: string): (response: ProxiedResponse) => void {
  return (response) => editAnswer(response, (body) => void (body.error = message));
}

/** A stream rewrite with no state: one event in, the events out. */
function eachEvent(rewrite: (event: StreamEvent, index: number) => string[]): Fault['stream'] {
  return () => {
    let index = 0;
    return { event: (event) => rewrite(event, index++) };
  };
}

function chunkOf(event: StreamEvent): { choices?: Array<{ delta?: Record<string, unknown>; finish_reason?: unknown }> } | undefined {
  if (event.data === undefined || event.data === '[DONE]') return undefined;
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
}

/** An event of Anthropic's stream, parsed (its `data`), or undefined. */
function messageEventOf(event: StreamEvent): { type?: unknown; delta?: { type?: unknown } } | undefined {
  if (event.data === undefined) return undefined;
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
}

function isContentDelta(event: StreamEvent): boolean {
  return typeof chunkOf(event)?.choices?.[0]?.delta?.content === 'string';
}

/**
 * The target's model listing, read once per target: the image model is found in it as the contract defines
 * it (the model whose `endpoints` include image generation), never by its name.
 */
const listings = new Map<string, Promise<Array<{ id: string; endpoints: string[] }>>>();
function models(exchange: Exchange): Promise<Array<{ id: string; endpoints: string[] }>> {
  let listing = listings.get(exchange.target);
  if (!listing) {
    listing = fetch(`${exchange.target}/v1/models`).then(async (res) => ((await res.json()) as { models: Array<{ id: string; endpoints: string[] }> }).models);
    listings.set(exchange.target, listing);
  }
  return listing;
}

export const faults: Record<string, FaultDefinition> = {
  'responses-store-ignored': {
    breaks: 'store: false keeps nothing (D29)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === RESPONSES) editBody(request, (body) => void delete body.store);
      },
    },
  },
  'responses-visible-to-other-keys': {
    breaks: 'a stored response is private to its key (D29)',
    server: (store) => {
      const owners = new Map<string, string>();
      return {
        store: {
          ...store,
          saveResponse: (record, expireBefore) => {
            owners.set(record.id, record.keyId);
            return store.saveResponse(record, expireBefore);
          },
          findResponse: (id, keyId) => store.findResponse(id, owners.get(id) ?? keyId),
          deleteResponse: (id, keyId) => store.deleteResponse(id, owners.get(id) ?? keyId),
        },
      };
    },
  },
  'responses-sequence-gap': {
    breaks: 'sequence_number rises by one (D29)',
    proxy: {
      stream: eachEvent((event, i) => {
        const data = messageEventOf(event) as { sequence_number?: number } | undefined;
        if (i < 3 || typeof data?.sequence_number !== 'number') return [event.frame];
        data.sequence_number += 1;
        return [event.frame.replace(/^data: .*$/m, `data: ${JSON.stringify(data)}`)];
      }),
    },
  },
  'responses-incomplete-as-completed': {
    breaks: 'max_output_tokens ends a response incomplete (D29)',
    proxy: {
      response: (response, { request }) =>
        pathOf(request) === RESPONSES && response.status === 200 &&
        editAnswer(response, (body) => {
          if (body.status !== 'incomplete') return;
          body.status = 'completed';
          body.incomplete_details = null;
        }),
    },
  },
  'structured-output-ignored': {
    breaks: 'structured output is JSON valid against the schema (D29)',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          delete body.response_format;
          if ((body.text as { format?: { type?: unknown } } | undefined)?.format?.type === 'json_schema') delete body.text;
        }),
    },
  },
  'messages-error-shape': {
    breaks: "Anthropic's error shape on the Messages operations (D27)",
    proxy: {
      response: (response, { request }) =>
        pathOf(request).startsWith(MESSAGES) && response.status >= 400 &&
        editAnswer(response, (body) => ({ error: (body.error as { message?: unknown } | undefined)?.message ?? body.error })),
    },
  },
  'messages-stream-no-stop': {
    breaks: 'a Messages stream ends with message_stop (D27)',
    proxy: { stream: eachEvent((event) => (messageEventOf(event)?.type === 'message_stop' ? [] : [event.frame])) },
  },
  'messages-partial-json-cut': {
    breaks: 'the input_json_delta pieces add up to the tool input (D27)',
    proxy: {
      // Every other piece of a tool's input is dropped: the pieces no longer add up to the input.
      stream: () => {
        let pieces = 0;
        return { event: (event) => (messageEventOf(event)?.delta?.type === 'input_json_delta' && pieces++ % 2 === 1 ? [] : [event.frame]) };
      },
    },
  },
  'count-tokens-off-by-one': {
    breaks: 'count_tokens answers the input_tokens billed (D27)',
    proxy: {
      response: (response, { request }) =>
        pathOf(request) === COUNT_TOKENS && response.status === 200 &&
        editAnswer(response, (body) => void (body.input_tokens = Number(body.input_tokens) + 1)),
    },
  },
  'anthropic-version-required': {
    breaks: 'a request without anthropic-version is accepted (D27)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request).startsWith(MESSAGES) && request.headers['anthropic-version'] === undefined) {
          return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
        }
      },
    },
  },
  'success-status-201': {
    breaks: 'the documented success status',
    proxy: { response: onStatus(200, (response) => void (response.status = 201)) },
  },
  'chat-drop-usage': {
    breaks: 'a required field of the chat completion',
    proxy: { response: (response, { request }) => pathOf(request) === CHAT && response.status === 200 && editAnswer(response, (body) => void delete body.usage) },
  },
  'prompt-model-query-ignored': {
    breaks: 'model as a query parameter on the prompt endpoint (D2)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === '/v1/generation/prompt') request.url = request.url.replace(/\?.*$/, '');
      },
    },
  },
  'prompt-model-defaulted': {
    breaks: 'a model is required on the prompt endpoint (D2)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) !== '/v1/generation/prompt' || request.url.includes('model=')) return;
        editBody(request, (body) => void (body.model ??= 'gpt-4o-mini'));
      },
    },
  },
  'prompt-model-conflict-accepted': {
    breaks: 'the query and body models must agree (D2)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) !== '/v1/generation/prompt' || !request.url.includes('model=')) return;
        let hasBodyModel = false;
        editBody(request, (body) => void (hasBodyModel = typeof body.model === 'string'));
        if (hasBodyModel) request.url = request.url.replace(/\?.*$/, '');
      },
    },
  },
  'unsupported-size-served': {
    breaks: 'an unsupported image size is a 400 naming the supported ones (D12)',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          if (body.size === '300x300') body.size = '256x256';
        }),
    },
  },
  'created-in-milliseconds': {
    breaks: 'created is Unix seconds',
    proxy: {
      response: (response, { request }) =>
        pathOf(request) === CHAT && response.status === 200 && editAnswer(response, (body) => void (body.created = Number(body.created) * 1000)),
    },
  },
  'chat-created-string': {
    breaks: 'the type of a field (created as a string)',
    proxy: { response: (response, { request }) => pathOf(request) === CHAT && response.status === 200 && editAnswer(response, (body) => void (body.created = String(body.created))) },
  },
  'unauthorized-message': {
    breaks: 'the fixed 401 message',
    proxy: { response: onStatus(401, withMessage('Invalid API key')) },
  },
  'stream-no-done': {
    breaks: 'the stream ends with data: [DONE]',
    proxy: { stream: eachEvent((event) => (event.data === '[DONE]' ? [] : [event.frame])) },
  },
  'stream-malformed-event': {
    breaks: 'every event is a JSON chunk',
    proxy: { stream: eachEvent((event, i) => (i === 0 ? [event.frame, 'data: {"id":'] : [event.frame])) },
  },
  'stream-no-role': {
    breaks: 'the role in the first delta',
    proxy: {
      stream: eachEvent((event, i) => {
        const chunk = chunkOf(event);
        if (i > 0 || !chunk?.choices?.[0]?.delta) return [event.frame];
        delete chunk.choices[0].delta.role;
        return [`data: ${JSON.stringify(chunk)}`];
      }),
    },
  },
  'stream-no-finish-reason': {
    breaks: 'finish_reason on the last content chunk',
    proxy: { stream: eachEvent((event) => (chunkOf(event)?.choices?.[0]?.finish_reason ? [] : [event.frame])) },
  },
  'stream-content-mismatch': {
    breaks: 'the deltas add up to the non-streamed answer',
    proxy: {
      // The last content delta is known only when the next event arrives: each one is held until then.
      stream: () => {
        let held: StreamEvent | undefined;
        return {
          event(event) {
            if (isContentDelta(event)) {
              const out = held ? [held.frame] : [];
              held = event;
              return out;
            }
            held = undefined; // dropped: it was the last content delta
            return [event.frame];
          },
        };
      },
    },
  },
  'stream-usage-unasked': {
    breaks: 'the usage chunk only when asked for',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          if (body.stream === true) body.stream_options = { include_usage: true };
        }),
    },
  },
  'bearer-refused': {
    breaks: 'Bearer is accepted on chat completions',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === CHAT && request.headers['x-api-key'] === undefined) delete request.headers.authorization;
      },
    },
  },
  'bearer-everywhere': {
    breaks: 'Bearer is refused beside chat completions (D14)',
    proxy: {
      request: ({ request }) => {
        const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
        if (pathOf(request) !== CHAT && bearer && request.headers['x-api-key'] === undefined) request.headers['x-api-key'] = bearer;
      },
    },
  },
  'missing-key-accepted': {
    breaks: '401 without a key',
    proxy: {
      request: ({ request }) => {
        if (request.headers['x-api-key'] === undefined && request.headers.authorization === undefined) request.headers['x-api-key'] = VALID_KEY;
      },
    },
  },
  'models-require-key': {
    breaks: 'the model listing is public',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === '/v1/models' && request.headers['x-api-key'] === undefined) return json(401, { error: 'Invalid API Key.' });
      },
    },
  },
  'models-unknown-key-accepted': {
    breaks: 'an unknown key on the listing answers 401 (D13)',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === '/v1/models') delete request.headers['x-api-key'];
      },
    },
  },
  'bearer-unknown-accepted': {
    breaks: '401 for an unknown Bearer key',
    proxy: {
      request: ({ request }) => {
        const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
        if (bearer && !KNOWN_KEYS.includes(bearer)) request.headers.authorization = `Bearer ${VALID_KEY}`;
      },
    },
  },
  'tier-not-enforced': {
    breaks: 'the tier rule (403)',
    server: (store) => ({ store: { ...store, findKeyByHash: async (hash) => withTier(await store.findKeyByHash(hash), 'ultimate') } }),
  },
  'quota-off-by-one': {
    breaks: 'the daily quota table',
    server: (store) => ({ store: { ...store, reserveImages: (key, day, n, limit) => store.reserveImages(key, day, n, limit + 1) } }),
  },
  'quota-partial-grant': {
    breaks: 'a request over the quota fails whole (D5)',
    server: (store) => ({
      store: {
        ...store,
        async reserveImages(key, day, n, limit) {
          const reservation = await store.reserveImages(key, day, n, limit);
          const left = limit - reservation.used;
          return reservation.granted || left <= 0 ? reservation : store.reserveImages(key, day, left, limit);
        },
      },
    }),
  },
  'edit-quota-free': {
    breaks: 'edits count against the daily quota (D7)',
    server: (store) => ({
      services: (built) => ({
        ...built,
        images: {
          ...built.images,
          async edit(key, order) {
            const batch = await built.images.edit(key, order);
            await store.releaseImages(key.id, utcDay(new Date()), order.n);
            return batch;
          },
        },
      }),
    }),
  },
  'n-ignored': {
    breaks: 'n images',
    proxy: { request: ({ request }) => void (pathOf(request).startsWith('/v1/generation/image') && editBody(request, (body) => void delete body.n)) },
  },
  'wrong-image-size': {
    breaks: 'images of the size asked for',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request).startsWith('/v1/generation/image')) editBody(request, (body) => void (body.size = body.size === '512x512' ? '1024x1024' : '512x512'));
      },
    },
  },
  'mask-ignored': {
    breaks: 'inpainting changes only the pixels under the mask',
    proxy: {
      // Only a mask that is a picture: a mistyped or empty one is still for the server to refuse.
      request: ({ request }) => {
        if (pathOf(request) === '/v1/generation/image/edit') editBody(request, (body) => void (isPicture(body.mask) && delete body.mask));
      },
    },
  },
  'temperature-unchecked': {
    breaks: 'temperature lies between 0 and 2',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          if (typeof body.temperature === 'number') body.temperature = Math.min(2, Math.max(0, body.temperature));
        }),
    },
  },
  'max-tokens-ignored': {
    breaks: 'max_tokens is honoured',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          delete body.max_tokens;
          delete body.max_completion_tokens;
        }),
    },
  },
  'malformed-json-500': {
    breaks: 'malformed JSON is a 4xx',
    proxy: {
      request: ({ request }) => {
        if (request.body.length === 0 || !(request.headers['content-type'] ?? '').includes('json')) return;
        try {
          JSON.parse(request.body.toString('utf8'));
        } catch {
          return json(500, { error: 'Internal server error.' });
        }
      },
    },
  },
  'json-content-type-text': {
    breaks: 'answers are application/json',
    proxy: {
      response: (response) => {
        if ((response.headers['content-type'] ?? '').startsWith('application/json')) response.headers['content-type'] = 'text/plain; charset=utf-8';
      },
    },
  },
  'missing-retry-after': {
    breaks: 'Retry-After on 429 (D6)',
    proxy: { response: onStatus(429, (response) => void delete response.headers['retry-after']) },
  },
  'image-required-message': {
    breaks: 'the fixed message for an edit without image',
    proxy: {
      response: onStatus(400, (response) =>
        editAnswer(response, (body) => {
          if (body.error === 'Image is required for editing.') body.error = 'An image is required.';
        }),
      ),
    },
  },
  'image-model-rule-ignored': {
    breaks: 'image generation with another model is a 400',
    proxy: {
      request: async (exchange) => {
        const url = new URL(exchange.request.url, 'http://proxy');
        const model = url.searchParams.get('model');
        if (url.pathname !== '/v1/generation/image' || model === null) return;
        // Only a model of the listing that is not the image model: an unknown or malformed one is still refused.
        const listing = await models(exchange);
        const image = listing.find((m) => m.endpoints.includes('/v1/generation/image'))!;
        if (model === image.id || !listing.some((m) => m.id === model)) return;
        url.searchParams.set('model', image.id);
        exchange.request.url = `${url.pathname}${url.search}`;
      },
    },
  },
  'error-body-message-key': {
    breaks: 'errors are {"error": message}',
    proxy: {
      response: (response) => {
        if (response.status >= 400) editAnswer(response, (body) => ({ message: body.error }));
      },
    },
  },
  'too-large-500': {
    breaks: 'a body over the limit is a 4xx',
    proxy: { response: onStatus(413, (response) => Object.assign(response, json(500, { error: 'Internal server error.' }))) },
  },
  'unknown-model-500': {
    breaks: 'an unknown model is a 4xx',
    proxy: {
      response: onStatus(404, (response) => {
        if (/model/i.test(errorOf(response))) Object.assign(response, json(500, { error: 'Internal server error.' }));
      }),
    },
  },
  'method-404': {
    breaks: 'a known route with another method is 405 with Allow (D21)',
    proxy: {
      response: onStatus(405, (response) => {
        response.status = 404;
        delete response.headers.allow;
      }),
    },
  },
  'forbidden-message-vague': {
    breaks: 'the 403 message names the tier needed (D3)',
    proxy: { response: onStatus(403, withMessage('Forbidden.')) },
  },
  // The protocol rules of OpenAI's and Anthropic's descriptions (issue 27): each caught in the core profile
  // against the vendor's description, and in the gateway's (whose D17, D27, D29 adopt them).
  'usage-total-off': {
    breaks: 'usage.total_tokens is input plus output (OpenAI)',
    protocol: 'openai',
    proxy: editUsage((usage) => {
      if (typeof usage.total_tokens === 'number') usage.total_tokens += 1;
    }),
  },
  'chat-tool-call-unopened': {
    breaks: 'a streamed tool call opens with its index, id and name (OpenAI)',
    protocol: 'openai',
    proxy: {
      stream: eachData((data) => {
        const calls = (data as { choices?: Array<{ delta?: { tool_calls?: Array<Record<string, unknown>> } }> }).choices?.[0]?.delta?.tool_calls;
        for (const call of calls ?? []) {
          delete call.id;
          if (call.function) delete (call.function as Record<string, unknown>).name;
        }
      }),
    },
  },
  'responses-item-id-mismatch': {
    breaks: "a Responses stream's deltas name their item by item_id (OpenAI)",
    protocol: 'openai',
    proxy: {
      stream: eachData((data) => {
        if (data.type === 'response.output_text.delta' && typeof data.item_id === 'string') data.item_id = `${data.item_id}x`;
      }),
    },
  },
  'responses-content-index-off': {
    breaks: "a Responses stream's parts are added at the next content_index (OpenAI)",
    protocol: 'openai',
    proxy: {
      stream: eachData((data) => {
        if (typeof data.content_index === 'number') data.content_index += 1;
      }),
    },
  },
  'responses-created-completed': {
    breaks: 'each lifecycle event carries a response of its status (OpenAI)',
    protocol: 'openai',
    proxy: {
      stream: eachData((data) => {
        if (data.type === 'response.created') (data.response as Record<string, unknown>).status = 'completed';
      }),
    },
  },
  'responses-previous-ignored': {
    breaks: 'previous_response_id continues a stored response (OpenAI)',
    protocol: 'openai',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === RESPONSES) editBody(request, (body) => void delete body.previous_response_id);
      },
    },
  },
  'responses-previous-unknown-accepted': {
    breaks: 'previous_response_id of a response that is not stored is refused (OpenAI)',
    protocol: 'openai',
    proxy: {
      // A server that continues nothing when it does not find the response named: asked again without it.
      request: async ({ request, target }) => {
        if (pathOf(request) !== RESPONSES || request.method !== 'POST') return;
        const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
        if (typeof body.previous_response_id !== 'string' || body.stream === true) return;
        const ask = (sent: Record<string, unknown>) => fetch(`${target}${request.url}`, { method: 'POST', headers: request.headers, body: JSON.stringify(sent) });
        let res = await ask(body);
        if (res.status >= 400 && res.status < 500) {
          delete body.previous_response_id;
          res = await ask(body);
        }
        return json(res.status, await res.json());
      },
    },
  },
  'responses-previous-other-key': {
    breaks: "another key cannot continue a key's stored response (D29)",
    proxy: (() => {
      // The key each response was made with, learnt from the answers: a continuation is sent with the owner's.
      const owners = new Map<string, Record<string, string>>();
      const credentials = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => k === 'x-api-key' || k === 'authorization'));
      return {
        request: ({ request }) => {
          if (pathOf(request) !== RESPONSES) return;
          editBody(request, (body) => {
            const owner = typeof body.previous_response_id === 'string' ? owners.get(body.previous_response_id) : undefined;
            if (!owner) return;
            for (const k of Object.keys(credentials(request.headers))) delete request.headers[k];
            Object.assign(request.headers, owner);
          });
        },
        response: (response, { request }) => {
          if (pathOf(request) !== RESPONSES || response.status !== 200 || !(response.headers['content-type'] ?? '').includes('json')) return;
          const id = (JSON.parse(response.body.toString('utf8')) as { id?: unknown }).id;
          if (typeof id === 'string') owners.set(id, credentials(request.headers));
        },
      } satisfies Fault;
    })(),
  },
  'json-object-ignored': {
    breaks: 'json_object makes the output a JSON object (OpenAI)',
    protocol: 'openai',
    proxy: {
      request: ({ request }) =>
        editBody(request, (body) => {
          if ((body.response_format as { type?: unknown } | undefined)?.type === 'json_object') delete body.response_format;
          if ((body.text as { format?: { type?: unknown } } | undefined)?.format?.type === 'json_object') delete body.text;
        }),
    },
  },
  'messages-start-input-tokens': {
    breaks: "message_start counts the request's input tokens (Anthropic)",
    protocol: 'anthropic',
    proxy: {
      stream: eachData((data) => {
        const usage = (data.message as { usage?: { input_tokens?: number } } | undefined)?.usage;
        if (data.type === 'message_start' && typeof usage?.input_tokens === 'number') usage.input_tokens += 1;
      }),
    },
  },
  'messages-delta-input-tokens': {
    // message_delta's usage is cumulative: its input_tokens, when present, is the stream's final count
    // (decision D31), so a wrong one must be noticed even though message_start's is right.
    breaks: "message_delta's input_tokens, when it carries them, count the request's input tokens (Anthropic, D31)",
    protocol: 'anthropic',
    proxy: {
      stream: eachData((data) => {
        const usage = data.usage as { output_tokens?: number; input_tokens?: number } | undefined;
        if (data.type === 'message_delta' && usage) usage.input_tokens = (usage.input_tokens ?? 0) + 1_000_000;
      }),
    },
  },
  'messages-tool-use-end-turn': {
    breaks: 'a message that ends in tool calls stops with tool_use (Anthropic)',
    protocol: 'anthropic',
    proxy: {
      response: (response, { request }) =>
        pathOf(request) === MESSAGES && response.status === 200 &&
        editAnswer(response, (body) => {
          if (body.stop_reason === 'tool_use') body.stop_reason = 'end_turn';
        }),
      stream: eachData((data) => {
        const delta = data.delta as { stop_reason?: unknown } | undefined;
        if (data.type === 'message_delta' && delta?.stop_reason === 'tool_use') delta.stop_reason = 'end_turn';
      }),
    },
  },
  'messages-stop-sequence-unnamed': {
    breaks: 'a stop sequence that ended the message is named in stop_sequence (Anthropic)',
    protocol: 'anthropic',
    proxy: {
      response: (response, { request }) =>
        pathOf(request) === MESSAGES && response.status === 200 &&
        editAnswer(response, (body) => {
          if (body.stop_reason === 'stop_sequence') body.stop_sequence = null;
        }),
    },
  },
  'messages-stop-sequences-ignored': {
    breaks: 'the message ends before a stop sequence (Anthropic)',
    protocol: 'anthropic',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request) === MESSAGES) editBody(request, (body) => void delete body.stop_sequences);
      },
    },
  },
  'messages-error-type-wrong': {
    breaks: "Anthropic's error type goes with the status (401 authentication_error)",
    protocol: 'anthropic',
    proxy: {
      response: (response, { request }) =>
        pathOf(request).startsWith(MESSAGES) && response.status === 401 &&
        editAnswer(response, (body) => void ((body.error as Record<string, unknown>).type = 'invalid_request_error')),
    },
  },
  'anthropic-version-new-refused': {
    breaks: 'the anthropic-version of the newer SDKs is accepted (Anthropic)',
    protocol: 'anthropic',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request).startsWith(MESSAGES) && request.headers['anthropic-version'] === '2026-10-21') {
          return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: unknown version' } });
        }
      },
    },
  },
  'beta-query-refused': {
    breaks: "?beta=true, which Claude Code sends, is accepted (Anthropic)",
    protocol: 'anthropic',
    proxy: {
      request: ({ request }) => {
        if (pathOf(request).startsWith(MESSAGES) && /[?&]beta=true\b/.test(request.url)) {
          return json(404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
        }
      },
    },
  },
  'unknown-model-400': {
    breaks: 'an unknown model answers 404 (OpenAI, Anthropic)',
    protocol: 'openai',
    proxy: {
      response: (response) => {
        if (response.status === 404 && /Model '[^']*' does not exist/.test(response.body.toString('utf8'))) response.status = 400;
      },
    },
  },
};

/** Whether a value is base64 (or a `data:` URL) of a PNG, JPEG or WebP file, by its first bytes. */
function isPicture(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const head = Buffer.from(value.replace(/^data:[^,]*,/, '').slice(0, 24), 'base64');
  return head.subarray(0, 4).toString('latin1') === '\x89PNG' || head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) || head.subarray(0, 4).toString('latin1') === 'RIFF';
}

function withTier(record: ApiKeyRecord | undefined, tier: ApiKeyRecord['tier']): ApiKeyRecord | undefined {
  return record && { ...record, tier };
}
