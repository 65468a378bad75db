/**
 * Streamed answers (D17, OpenAI's framing): `text/event-stream`, data-only events each valid against the
 * chunk schema (the stream schema's `contentSchema`), the role in the first delta, `finish_reason` on the
 * last content chunk, the usage chunk only with `stream_options.include_usage`, `data: [DONE]` last; and in
 * the full profile, deltas that reassemble to the non-streamed answer of the same request.
 */
import { contract, escapePointer, type Operation } from '../../contract/index.ts';
import type { Check, Tester } from '../check.ts';
import { requestExamples } from '../examples.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import { schemaLocation } from '../schema.ts';
import { checkedOperations } from '../scope.ts';
import { parseEventStream } from '../../client/sse.ts';
import { analyseStream } from '../stream-rules.ts';
import { expectSuccess, finishReason, textOf } from '../expectations.ts';
import { longRequest, validRequest, withBody, withStreamAccept } from '../requests.ts';

const SSE = 'text/event-stream';
const RULE = 'D17';

/** Where the chunk schema of an operation's event stream lives, when its 200 offers one. */
function chunkSchemaPointer(op: Operation): string | undefined {
  if (!op.responses['200']?.content?.[SSE]) return undefined;
  const streamPointer = contract.canonicalPointer(`${op.pointer}/responses/200/content/${escapePointer(SSE)}/schema`);
  const stream = contract.deref<Record<string, unknown>>({ $ref: `#${streamPointer}` });
  const content = stream.contentSchema as { $ref?: string } | undefined;
  if (!content) return undefined;
  return content.$ref ? content.$ref.replace(/^#/, '') : `${streamPointer}/contentSchema`;
}

export function streamingChecks(): Check[] {
  return checkedOperations.flatMap((op) => {
    const chunkPointer = chunkSchemaPointer(op);
    if (!chunkPointer) return [];
    const check = (slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>): Check => ({
      id: `${op.operationId}/streaming/${slug}`, operationId: op.operationId, family: 'streaming', title, ...extra, run,
    });
    return [
      check('with-usage', 'stream with include_usage → SSE, valid chunks, role first, finish_reason last, usage chunk, [DONE] last', {}, async (t) => {
        const req = streamRequest(t, op, true);
        const ex = await t.send(req);
        if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseStream(t, ex, chunkPointer, { usage: true });
      }),
      check('without-usage', 'stream without stream_options → the same framing and no usage chunk', { stateful: true }, async (t) => {
        const ex = await t.send(streamRequest(t, op, false));
        if (expectSuccess(t, op, ex, RULE, 'a streamed request')) analyseStream(t, ex, chunkPointer, { usage: false });
      }),
      check('reassembly', 'streamed deltas reassemble to the non-streamed answer (temperature 0)', { reference: true, stateful: true }, async (t) => {
        const plain = longRequest(t, op);
        const whole = await t.send(plain);
        if (!expectSuccess(t, op, whole, RULE, 'the non-streamed request')) return;
        const streamed = await t.send(withStreamAccept(t, withBody(plain, { stream: true })));
        if (!expectSuccess(t, op, streamed, RULE, 'the streamed request')) return;
        const chunks = analyseStream(t, streamed, chunkPointer, { usage: false });
        const content = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
        t.expect(content === textOf(whole), `the deltas give ${JSON.stringify(content.slice(0, 200))}, the non-streamed answer is ${JSON.stringify(String(textOf(whole)).slice(0, 200))}`, 'Streaming: concatenating the content deltas gives exactly the non-streamed answer', streamed);
        const last = [...chunks].reverse().find((c) => (c.choices?.length ?? 0) > 0);
        t.expect(last?.choices?.[0]?.finish_reason === finishReason(whole), `the stream ends with finish_reason ${JSON.stringify(last?.choices?.[0]?.finish_reason)}, the non-streamed answer with ${JSON.stringify(finishReason(whole))}`, RULE, streamed);
      }),
    ];
  });
}

/** The contract's streaming example (or the first one made streaming), with or without the usage chunk. */
function streamRequest(t: Tester, op: Operation, usage: boolean): OutgoingRequest {
  const examples = requestExamples(op);
  const example = examples.find((e) => e.body?.stream === true) ?? examples[0];
  const base = validRequest(t, op, example);
  const body: Record<string, unknown> = { ...(base.json as Record<string, unknown>), stream: true };
  if (usage) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return withStreamAccept(t, { ...base, json: body });
}
