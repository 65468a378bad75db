/**
 * Image behaviour the specification states, on every operation that answers with images: `n` images,
 * the default `size` and `n`, and (full profile) an inpainting mask that leaves the pixels outside it
 * unchanged. The source is already at the target size, so no scaling blurs the comparison.
 */
import { imageOperations } from '../scope.ts';
import { stated, type Check, type RunContext } from '../check.ts';
import { changedPixels, decodeImage, gradientPng, squareMaskPng } from '../png.ts';
import { propertySchema } from '../schema.ts';
import { checkImages } from '../rules/image-answers.ts';
import { expectSuccess } from '../expectations.ts';
import { validRequest, withBody } from '../requests.ts';

export function imageChecks(ctx: RunContext): Check[] {
  return imageOperations(ctx.contract).flatMap((op) => {
    const body = op.raw.requestBody?.content['application/json']?.schema;
    const propertySchemaOf = (name: string) => (body ? propertySchema(ctx.contract, body, name) : undefined);
    const checks: Check[] = [];
    const rule = 'images';
    const id = (slug: string) => `${op.operationId}/images/${slug}`;
    if (propertySchemaOf('n')) {
      checks.push(...stated(ctx, rule, {
        id: id('n'), operationId: op.operationId, family: 'images', stateful: true,
        title: 'n=3 → three images of the size asked for',
        async run(t) {
          const req = withBody(validRequest(t, op, undefined, { spend: 3 }), { n: 3 });
          const ex = await t.send(req);
          if (expectSuccess(t, op, ex, rule, 'n=3')) await checkImages(t, op, req.json as Record<string, unknown>, ex);
        },
      }));
    }
    if (propertySchemaOf('n') || propertySchemaOf('size')) {
      checks.push(...stated(ctx, rule, {
        id: id('defaults'), operationId: op.operationId, family: 'images', stateful: true,
        title: `no size and no n → one image of the default size ${String(propertySchemaOf('size')?.default ?? '')}`.trim(),
        async run(t) {
          const req = validRequest(t, op, undefined, { spend: 1 });
          const json = { ...(req.json as Record<string, unknown>) };
          delete json.n;
          delete json.size;
          const ex = await t.send({ ...req, json });
          if (expectSuccess(t, op, ex, rule, 'defaults')) await checkImages(t, op, json, ex);
        },
      }));
    }
    if (propertySchemaOf('mask')) {
      checks.push(...stated(ctx, rule, {
        id: id('mask'), operationId: op.operationId, family: 'images', stateful: true, reference: true,
        title: 'inpainting: pixels outside the mask stay unchanged',
        async run(t) {
          const size = 512;
          const [from, to] = [size / 4, (size * 3) / 4];
          const source = await gradientPng(size);
          const mask = await squareMaskPng(size, from, to);
          const req = withBody(validRequest(t, op, undefined, { spend: 1 }), { image: source.toString('base64'), mask: mask.toString('base64'), size: `${size}x${size}`, n: 1 });
          const ex = await t.send(req);
          if (!expectSuccess(t, op, ex, rule, 'inpainting')) return;
          const [result] = await checkImages(t, op, req.json as Record<string, unknown>, ex);
          if (!result || result.width !== size || result.height !== size) return;
          if (!result.pixels) return t.skip(`the result is ${result.format}, not PNG: its pixels are not compared`);
          const original = await decodeImage(source.toString('base64'));
          const inside = (x: number, y: number) => x >= from && x < to && y >= from && y < to;
          const outside = changedPixels(original, result, (x, y) => !inside(x, y));
          t.expect(outside === 0, `${outside} pixels outside the mask changed`, `${rule}: white pixels mark the areas to modify`, ex);
          t.expect(changedPixels(original, result, inside) > 0, 'no pixel under the mask changed', `${rule}: white pixels mark the areas to modify`, ex);
        },
      }));
    }
    return checks;
  });
}
