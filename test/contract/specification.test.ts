// What the interface specification fixes, found in the bundled spec: operations, statuses, messages,
// security, tiers and quotas. A change to openapi/ that drops one of them fails here.
import { describe, expect, it } from 'vitest';
import { contract, acceptsScheme, dailyImageQuota, isPublic, tiers } from '../../src/contract/index.ts';

const bundled = JSON.stringify(contract.spec);

describe('the five operations of the specification', () => {
  it.each([
    ['post', '/v1/generation/prompt', 'createTextCompletion'],
    ['post', '/v1/chat/completions', 'createChatCompletion'],
    ['post', '/v1/generation/image', 'createImage'],
    ['post', '/v1/generation/image/edit', 'editImage'],
    ['get', '/v1/models', 'listModels'],
  ])('%s %s is %s', (method, path, operationId) => {
    const op = contract.getOperation(operationId);
    expect([op.method, op.path]).toEqual([method, path]);
  });

  it('has every specified status, with an {error} JSON body for every error', () => {
    const expected: Record<string, string[]> = {
      // 502 and 504: a model's upstream failed or was too slow (decision D31).
      createTextCompletion: ['200', '400', '401', '403', '404', '413', '500', '502', '503', '504'],
      createChatCompletion: ['200', '400', '401', '403', '404', '413', '500', '502', '503', '504'],
      createImage: ['200', '400', '401', '403', '404', '413', '429', '500', '502', '503', '504'],
      editImage: ['200', '400', '401', '403', '413', '429', '500', '502', '503', '504'],
      listModels: ['200', '401', '429', '500', '503'],
      // Rule 6 of Authentication: Anthropic's protocol, with its own error shape (decision D27).
      createMessage: ['200', '400', '401', '403', '404', '413', '429', '500', '502', '503', '504'],
      countMessageTokens: ['200', '400', '401', '403', '404', '413', '429', '500', '503'],
      // What today's OpenAI clients speak (decision D29).
      createResponse: ['200', '400', '401', '403', '404', '413', '500', '502', '503', '504'],
      getResponse: ['200', '401', '404', '500', '503'],
      deleteResponse: ['200', '401', '404', '500', '503'],
    };
    const anthropic = new Set(['createMessage', 'countMessageTokens']);
    const ops = contract.operations.filter((o) => o.path.startsWith('/v1/'));
    expect(ops.map((o) => o.operationId).sort()).toEqual(Object.keys(expected).sort());
    for (const op of ops) {
      expect(Object.keys(op.responses).sort(), op.operationId).toEqual(expected[op.operationId]!.sort());
      const errorSchema = anthropic.has(op.operationId) ? 'AnthropicError' : 'Error';
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith('2')) continue;
        expect(Object.keys(response.content ?? {}), `${op.operationId} ${status}`).toEqual(['application/json']);
        // The error schema itself, or one that extends it with what it fixes for this status (a message, Anthropic's `error.type`).
        const schema = response.content!['application/json']!.schema as { $ref?: string; allOf?: Array<{ $ref?: string }> };
        expect(schema.$ref ?? schema.allOf?.[0]?.$ref, `${op.operationId} ${status}`).toBe(`#/components/schemas/${errorSchema}`);
      }
    }
  });

  it('streams chat completions as text/event-stream beside application/json', () => {
    const content = contract.getOperation('createChatCompletion').responses['200']!.content!;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'text/event-stream']);
    const example = contract.deref<{ value: string }>(Object.values(content['text/event-stream']!.examples!)[0] as { $ref: string });
    const events = example.value.trim().split('\n\n');
    expect(events.length).toBeGreaterThan(3);
    expect(events.at(-1)).toBe('data: [DONE]');
  });
});

describe('messages quoted by the specification', () => {
  it.each(['Invalid API Key.', 'Image is required for editing.', 'Daily quota exceeded.'])('%s', (message) => {
    expect(bundled).toContain(JSON.stringify(message));
  });

  it('names the image model in the non-image-model error', () => {
    const examples = contract.getOperation('createImage').responses['400']!.content!['application/json']!.examples!;
    expect(JSON.stringify(examples)).toMatch(/does not support image generation.*image-gen/);
  });

  it('ties the missing-image message to the image field', () => {
    expect(contract.spec.components.schemas.ImageEditRequest!['x-required-messages']).toEqual({ image: 'Image is required for editing.' });
  });

  it('sends Retry-After and x-should-retry: false with 429', () => {
    const tooMany = contract.spec.components.responses.TooManyRequests!;
    const headers = Object.fromEntries(Object.entries(tooMany.headers!).map(([k, v]) => [k, contract.deref<{ required: boolean; schema: object }>(v as { $ref: string })]));
    expect(headers['Retry-After']!.required).toBe(true);
    expect(headers['x-should-retry']!.schema).toMatchObject({ const: 'false' });
  });
});

describe('security as the specification says', () => {
  it('accepts x-api-key everywhere, and Bearer on chat completions, Responses and the Anthropic operations only', () => {
    const bearer = ['createChatCompletion', 'createResponse', 'getResponse', 'deleteResponse', 'createMessage', 'countMessageTokens'];
    for (const op of contract.operations.filter((o) => o.path.startsWith('/v1/'))) {
      expect(acceptsScheme(op, 'ApiKeyHeader'), op.operationId).toBe(true);
      expect(acceptsScheme(op, 'BearerAuth'), op.operationId).toBe(bearer.includes(op.operationId));
    }
    expect(contract.spec.components.securitySchemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(contract.spec.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lets the model listing answer without a key', () => {
    expect(isPublic(contract.getOperation('listModels'))).toBe(true);
    expect(contract.operations.filter((o) => o.path.startsWith('/v1/') && isPublic(o)).map((o) => o.operationId)).toEqual(['listModels']);
  });
});

describe('tiers, quotas and limits', () => {
  it('orders the tiers free < starter < economy < pro < ultimate', () => {
    expect(tiers).toEqual(['free', 'starter', 'economy', 'pro', 'ultimate']);
  });

  it('holds the daily image quota table, and documents the same numbers', () => {
    expect(['starter', 'economy', 'pro', 'ultimate'].map((t) => dailyImageQuota(t as 'starter'))).toEqual([3, 10, 25, 50]);
    const description = contract.spec.components.schemas.Tier!.description as string;
    const introduction = contract.spec.info.description as string;
    const paths = contract.spec.paths as Record<string, { post?: { description?: string } }>;
    const imageOperations = ['/v1/generation/image', '/v1/generation/image/edit'].map((path) => paths[path]!.post!.description!);
    for (const [tier, quota] of [['starter', 3], ['economy', 10], ['pro', 25], ['ultimate', 50]] as const) {
      expect(description).toMatch(new RegExp(`\\| ${tier} \\| ${quota} \\|`));
      // Where a reader looks: the introduction's table and each image operation say the same numbers.
      expect(introduction).toMatch(new RegExp(`\\| ${tier} \\| ${quota} \\|`));
      for (const text of imageOperations) expect(text.replace(/\s+/g, ' ')).toContain(`${tier} ${quota}`);
    }
  });

  it('bounds temperature to 0..2 and gives image defaults', () => {
    expect(contract.spec.components.schemas.Temperature).toMatchObject({ minimum: 0, maximum: 2 });
    const gen = contract.spec.components.schemas.ImageGenerationRequest!.properties as Record<string, Record<string, unknown>>;
    expect(gen.size!.default).toBe('1024x1024');
    expect(contract.deref<Record<string, unknown>>(gen.n as { $ref: string }).default).toBe(1);
    const edit = contract.spec.components.schemas.ImageEditRequest!.properties as Record<string, Record<string, unknown>>;
    expect(edit.size!.enum).toEqual(['1024x1024', '512x512']);
    expect(contract.spec.components.schemas.ImageEditRequest!.required).toEqual(['prompt', 'image']);
  });

  it('lists a catalogue with every tier, several providers, and image-gen', () => {
    const { models } = contract.spec.components.examples.ListModelsResponseExample!.value as { models: Array<Record<string, unknown>> };
    expect(new Set(models.map((m) => m.tier))).toEqual(new Set(tiers));
    expect(new Set(models.map((m) => m.provider)).size).toBeGreaterThanOrEqual(3);
    expect(models.find((m) => m.id === 'image-gen')).toMatchObject({
      category: 'Image',
      endpoints: ['/v1/generation/image', '/v1/generation/image/edit'],
    });
  });
});

describe('OpenAPI 3.1 idioms', () => {
  it('declares the 2020-12 dialect and never uses nullable', () => {
    expect(contract.spec.openapi).toMatch(/^3\.1\./);
    expect(contract.spec.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(bundled).not.toContain('"nullable"');
  });

  it('writes down every decision with its level, in the rendered description', () => {
    const description = contract.spec.info.description!;
    expect(description).toContain('# Decisions where the specification is silent');
    const rows = description.split('\n').filter((line) => /^\| D\d+ \|/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const row of rows) expect(row).toMatch(/\| (Core|Reference|[^|]*core[^|]*)[^|]*\|$/i);
  });
});
