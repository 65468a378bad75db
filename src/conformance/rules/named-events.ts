/**
 * The common part of the named-event streams (Anthropic's Messages, D27; OpenAI's Responses, D29): the
 * content type, `event:` + `data:` framing, each event JSON, valid against the event schema and named by its
 * own `type`. The grammar of each protocol is checked by its own rules on the events returned.
 */
import { describeErrors } from '../../contract/index.ts';
import type { Tester } from '../check.ts';
import type { Exchange } from '../http.ts';
import { schemaLocation } from '../schema.ts';
import { parseNamedEventStream } from '../../client/sse.ts';

const SSE = 'text/event-stream';

/** The events of a streamed answer that parsed, or undefined when the answer is not an event stream. */
export function readNamedEvents<T extends { type?: unknown }>(t: Tester, ex: Exchange, eventPointer: string, rule: string): T[] | undefined {
  const res = ex.response!;
  if (!t.expect(res.contentType?.startsWith(SSE) ?? false, `a streamed answer has content type ${res.contentType}, not ${SSE}`, rule, ex)) return undefined;
  const { events: raw, problems } = parseNamedEventStream(res.text);
  for (const p of problems) t.fail(p, `${rule}: framing`, ex);
  const validate = t.ctx.contract.validatorAt(eventPointer);
  const events: T[] = [];
  let invalid = 0;
  for (const [i, { event, data }] of raw.entries()) {
    let parsed: T;
    try {
      parsed = JSON.parse(data) as T;
    } catch {
      if (invalid++ < 3) t.fail(`event ${i} is not JSON: ${JSON.stringify(data.slice(0, 120))}`, `${rule}: framing`, ex);
      continue;
    }
    if (!validate(parsed) && invalid++ < 3) t.fail(`event ${i}: ${describeErrors(validate.errors)}`, schemaLocation(eventPointer, validate.errors?.[0]?.schemaPath ?? ''), ex);
    if (event !== parsed.type && invalid++ < 3) t.fail(`event ${i} is named ${JSON.stringify(event)} but its type is ${JSON.stringify(parsed.type)}`, `${rule}: framing`, ex);
    events.push(parsed);
  }
  return events;
}
