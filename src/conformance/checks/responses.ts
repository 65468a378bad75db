/**
 * Every operation answers each of the contract's own request examples with a documented success: status,
 * content type, body schema and headers; image answers also hold the `n` images of `size` asked for; and a
 * timestamp (`created`, `created_at`) is Unix seconds of today, as the specification says, not milliseconds.
 */
import { isImageOperation } from '../scope.ts';
import { stated, type Check, type RunContext } from '../check.ts';
import { requestExamples } from '../examples.ts';
import { checkImages, requested } from '../rules/image-answers.ts';
import { expectSuccess, usageAddsUp } from '../expectations.ts';
import { validRequest } from '../requests.ts';

const DAY_SECONDS = 24 * 60 * 60;

function describeOffset(seconds: number): string {
  const days = Math.abs(seconds) / DAY_SECONDS;
  return days > 3650 ? `${Math.round(days / 365)} years` : `${Math.round(days)} days`;
}

export function responseChecks(ctx: RunContext): Check[] {
  const { contract } = ctx;
  return contract.operations.flatMap((op) =>
    requestExamples(contract, op).flatMap((example) => stated(ctx, 'documented-responses', {
      id: `${op.operationId}/responses/${example.name}`,
      operationId: op.operationId,
      family: 'responses',
      title: `${example.name === 'no body' ? 'a plain request' : `example ${example.name}`} → documented success`,
      async run(t) {
        const images = isImageOperation(contract, op) ? Number(requested(contract, op, example.body, 'n') ?? 1) : undefined;
        const req = validRequest(t, op, example, images === undefined ? {} : { spend: images });
        const ex = await t.send(req);
        if (!expectSuccess(t, op, ex, `#${op.pointer}/responses`)) return;
        const streaming = (req.json as { stream?: unknown } | undefined)?.stream === true;
        if (streaming) {
          t.expect(ex.response?.contentType?.startsWith('text/event-stream') ?? false, `asked for stream: true, got ${ex.response?.contentType}`, `#${op.pointer}/responses/200/content`, ex);
        }
        if (!t.ctx.profile.stateful) return;
        await checkImages(t, op, req.json as Record<string, unknown> | undefined, ex);
        const body = ex.response?.json as { created?: unknown; created_at?: unknown } | undefined;
        const stamp = body?.created ?? body?.created_at;
        if (typeof stamp === 'number' && t.ctx.protocol.rule('timestamps')) {
          const now = Date.now() / 1000;
          t.expect(Math.abs(stamp - now) < DAY_SECONDS, `the timestamp ${stamp} is ${describeOffset(stamp - now)} from now: not Unix seconds of this moment`, 'timestamps', ex);
        }
        usageAddsUp(t, ex);
      },
    })),
  );
}
