/**
 * The mock (real Prism, through startMock) answers what a frontend lays pages out with: an image of each
 * documented size, asked for by name with `Prefer: example=…` (Prism cannot read `size`), the default
 * size when nothing is asked; and billing headers that agree with the body they come with (each operation's
 * own header examples, the reference's headers with that body: scripts/examples.ts).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type Mock } from '../../scripts/lib/prism.ts';
import { documentedImageSizes, editImageSizes, exampleCases } from '../../scripts/lib/example-answers.ts';
import { contract } from '../../src/contract/index.ts';
import { createCatalogue } from '../../src/server/catalogue/catalogue.ts';
import { billingHeaders } from '../../src/server/http/responses.ts';
import { exampleRequest, readBody, type SpecRequest } from './spec-requests.ts';

const { models } = createCatalogue();

let mock: Mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.close();
});

async function send(request: SpecRequest): Promise<{ res: Response; body: unknown }> {
  const res = await fetch(`${mock.baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  return { res, body: await readBody(res) };
}

/** Width and height of a base64 PNG, decoded. */
async function decodedSize(b64: string): Promise<string> {
  const { info } = await sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true });
  return `${info.width}x${info.height}`;
}

/** The example of an image operation's answer that stands for `size` (the size its x-request asks for). */
function exampleFor(operationId: string, size: string): { name: string; summary: string } {
  const op = contract.getOperation(operationId);
  const examples = contract.deref<{ content: Record<string, { examples: Record<string, unknown> }> }>(op.responses['200']).content['application/json']!.examples;
  for (const [name, ref] of Object.entries(examples)) {
    const example = contract.deref<{ summary: string; 'x-request'?: { body?: { size?: string } } }>(ref);
    if (example['x-request']?.body?.size === size) return { name, summary: example.summary };
  }
  throw new Error(`${operationId} has no example answer of size ${size}`);
}

const sizeCases = [
  ...documentedImageSizes().map((size) => ['createImage', size] as const),
  ...editImageSizes().map((size) => ['editImage', size] as const),
];

describe('images from the mock', () => {
  it.each(sizeCases)('%s answers a PNG of %s for Prefer: example=<its name>, as its summary says', async (operationId, size) => {
    const { name, summary } = exampleFor(operationId, size);
    expect(summary).toContain(`Prefer: example=${name}`);
    const { res, body } = await send(exampleRequest(contract.getOperation(operationId), { prefer: `example=${name}` }));
    expect(res.status).toBe(200);
    const { data } = body as { data: Array<{ b64_json: string }> };
    expect(data).toHaveLength(1);
    expect(await decodedSize(data[0]!.b64_json)).toBe(size);
  });

  it.each(['createImage', 'editImage'])('%s answers the default size when no example is asked for', async (operationId) => {
    const { body } = await send(exampleRequest(contract.getOperation(operationId)));
    const defaultSize = (contract.spec.components.schemas.ImageGenerationRequest!.properties as Record<string, { default: string }>).size!.default;
    expect(await decodedSize((body as { data: Array<{ b64_json: string }> }).data[0]!.b64_json)).toBe(defaultSize);
  });

  it('keeps the contract small: every image example is at most 1,000 characters of base64, which the docs show whole', () => {
    const images = exampleCases().filter((c) => c.operation.operationId === 'createImage' && c.status === '200');
    expect(images.length).toBe(documentedImageSizes().length);
    for (const c of images) {
      for (const { b64_json } of (c.value as { data: Array<{ b64_json: string }> }).data) expect(b64_json.length, c.name).toBeLessThanOrEqual(1000);
    }
  });
});

/** The billing headers the reference sends with an answer body: from its model's multiplier and its usage. */
function billingFor(body: unknown): Record<string, string> | undefined {
  const { model, usage } = body as { model?: string; usage?: Record<string, number> };
  const found = models.find((m) => m.id === model);
  // OpenAI's total, or Anthropic's input and output.
  const total = usage?.total_tokens ?? (usage ? (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) : undefined);
  return found && total !== undefined ? billingHeaders(found, total) : undefined;
}

describe('billing headers from the mock', () => {
  const billed = contract.operations.filter((op) => op.responses['200'] && 'x-gateway-billed-tokens' in contract.responseHeaders(op.responses['200']));

  it.each(billed.map((op) => [op.operationId, op] as const))('%s: x-gateway-* agree with the body sent with them', async (_id, op) => {
    const { res, body } = await send(exampleRequest(op, { accept: 'application/json' }));
    expect(res.status).toBe(200);
    const expected = billingFor(body);
    expect(expected).toBeDefined();
    expect({
      'x-gateway-multiplier': res.headers.get('x-gateway-multiplier'),
      'x-gateway-billed-tokens': res.headers.get('x-gateway-billed-tokens'),
    }).toEqual(expected);
  });
});
