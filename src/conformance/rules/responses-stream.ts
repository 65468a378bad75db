/**
 * The rules of a streamed Responses answer (`responses-stream`), checked on one exchange: content type,
 * `event:` + `data:` framing with the event's name equal to its `type`, every event valid against the event
 * schema, `sequence_number` 0, 1, 2…, and the grammar: `response.created` and `response.in_progress` first;
 * each output item added (`in_progress`), its content parts added at the next `content_index`, its text or
 * arguments in deltas, done (the deltas adding up to the `.done` text or arguments and to the item in
 * `response.output_item.done`, `completed`); every event of an item naming it by `output_index` and `item_id`;
 * `response.completed` or `response.incomplete` last, whose response holds exactly the items the stream
 * finished. Each lifecycle event carries a response of its own status. Returns that final response, for
 * comparison with a JSON answer.
 */
import { canonicalJson } from '../../lib/canonical-json.ts';
import type { Tester } from '../check.ts';
import type { Exchange } from '../http.ts';
import { usageAddsUp } from '../expectations.ts';
import { readNamedEvents } from './named-events.ts';

const RULE = 'responses-stream';
const GRAMMAR = `${RULE}: the event grammar`;
const PAIRING = `${RULE}: each event names its item (output_index, item_id) and part (content_index)`;
const LIFECYCLE = `${RULE}: each lifecycle event carries a response of its status`;
const ENDS = new Set(['response.completed', 'response.incomplete']);

/** The status the response of each lifecycle event has (`response.created` may also be `queued`). */
const STATUS: Record<string, string[]> = {
  'response.created': ['in_progress', 'queued'],
  'response.in_progress': ['in_progress'],
  'response.completed': ['completed'],
  'response.incomplete': ['incomplete'],
};

interface Item {
  type?: unknown;
  id?: unknown;
  status?: unknown;
  arguments?: unknown;
  content?: Array<{ text?: unknown }>;
}

interface StreamEvent {
  type?: unknown;
  sequence_number?: unknown;
  output_index?: unknown;
  content_index?: unknown;
  item_id?: unknown;
  item?: Item;
  delta?: unknown;
  text?: unknown;
  arguments?: unknown;
  response?: { status?: unknown; output?: Item[]; usage?: unknown };
}

/** The final response of the stream, with the text and arguments its deltas gave. */
export interface StreamedResponse {
  response: NonNullable<StreamEvent['response']>;
  /** By output index: the concatenated text deltas, or the concatenated argument deltas. */
  streamed: string[];
}

export function analyseResponseStream(t: Tester, ex: Exchange, eventPointer: string): StreamedResponse | undefined {
  const events = readNamedEvents<StreamEvent>(t, ex, eventPointer, RULE);
  if (!events) return undefined;
  if (!t.expect(events.length > 0, 'the stream has no events', GRAMMAR, ex)) return undefined;
  const badSequence = events.findIndex((e, i) => e.sequence_number !== i);
  t.expect(badSequence < 0, `event ${badSequence} has sequence_number ${JSON.stringify(events[badSequence]?.sequence_number)}, not ${badSequence}`, `${RULE}: sequence_number rises by one from 0`, ex);
  if (events.some((e) => e.type === 'error')) {
    t.fail('the stream carries an error event', GRAMMAR, ex);
    return undefined;
  }
  t.expect(events[0]?.type === 'response.created' && events[1]?.type === 'response.in_progress', `the stream begins with ${events.slice(0, 2).map((e) => e.type).join(', ')}, not response.created, response.in_progress`, GRAMMAR, ex);
  const last = events.at(-1)!;
  if (!t.expect(ENDS.has(String(last.type)), `the last event is ${JSON.stringify(last.type)}, not response.completed or response.incomplete`, GRAMMAR, ex)) return undefined;
  for (const e of events) {
    const allowed = STATUS[String(e.type)];
    if (allowed && !allowed.includes(String(e.response?.status))) {
      t.fail(`${e.type} carries a response whose status is ${JSON.stringify(e.response?.status)}, not ${allowed.join(' or ')}`, LIFECYCLE, ex);
    }
  }

  const wrong = (what: string, rule = GRAMMAR) => t.fail(what, rule, ex);
  const streamed: string[] = [];
  const done: Item[] = [];
  let open: { index: number; id: unknown; parts: number; part: number | undefined } | undefined;
  const named = (e: StreamEvent): boolean => {
    const index = typeof e.output_index === 'number' ? e.output_index : -1;
    if (!open || index !== open.index) {
      wrong(`${e.type} for item ${index} while ${open === undefined ? 'no item' : `item ${open.index}`} is open`);
      return false;
    }
    if (e.type !== 'response.output_item.done' && e.item_id !== open.id) {
      wrong(`${e.type} names item ${JSON.stringify(e.item_id)}, the open item is ${JSON.stringify(open.id)}`, PAIRING);
    }
    return true;
  };
  const inPart = (e: StreamEvent): void => {
    if (open && e.content_index !== open.part) wrong(`${e.type} has content_index ${JSON.stringify(e.content_index)} while ${open.part === undefined ? 'no part' : `part ${open.part}`} is open`, PAIRING);
  };
  for (const e of events.slice(2, -1)) {
    switch (e.type) {
      case 'response.output_item.added': {
        const index = typeof e.output_index === 'number' ? e.output_index : -1;
        if (open !== undefined) wrong(`item ${index} is added while item ${open.index} is open`);
        if (index !== done.length) wrong(`item index ${index} where ${done.length} comes next`);
        t.expect(e.item?.status === 'in_progress', `item ${index} is added with status ${JSON.stringify(e.item?.status)}, not "in_progress"`, LIFECYCLE, ex);
        open = { index, id: e.item?.id, parts: 0, part: undefined };
        streamed[index] = '';
        break;
      }
      case 'response.content_part.added':
        if (!named(e)) break;
        if (open!.part !== undefined) wrong(`part ${JSON.stringify(e.content_index)} is added while part ${open!.part} is open`, PAIRING);
        if (e.content_index !== open!.parts) wrong(`part ${JSON.stringify(e.content_index)} is added where ${open!.parts} comes next`, PAIRING);
        open!.part = typeof e.content_index === 'number' ? e.content_index : undefined;
        break;
      case 'response.output_text.delta':
        if (named(e)) {
          inPart(e);
          streamed[open!.index] += String(e.delta);
        }
        break;
      case 'response.function_call_arguments.delta':
        if (named(e)) streamed[open!.index] += String(e.delta);
        break;
      case 'response.output_text.done':
        if (named(e)) {
          inPart(e);
          if (e.text !== streamed[open!.index]) wrong(`output_text.done of item ${open!.index} has other text than its deltas`);
        }
        break;
      case 'response.function_call_arguments.done':
        if (named(e) && e.arguments !== streamed[open!.index]) wrong(`function_call_arguments.done of item ${open!.index} has other arguments than its deltas`);
        break;
      case 'response.content_part.done':
        if (named(e)) {
          inPart(e);
          open!.parts++;
          open!.part = undefined;
        }
        break;
      case 'response.output_item.done': {
        if (!named(e)) break;
        const item = e.item ?? {};
        if (open!.part !== undefined) wrong(`item ${open!.index} is done while its part ${open!.part} is open`, PAIRING);
        t.expect(item.id === open!.id, `item ${open!.index} is done with id ${JSON.stringify(item.id)}, it was added as ${JSON.stringify(open!.id)}`, PAIRING, ex);
        t.expect(item.status === 'completed' || item.status === 'incomplete', `item ${open!.index} is done with status ${JSON.stringify(item.status)}`, LIFECYCLE, ex);
        const whole = item.type === 'message' ? item.content?.map((c) => c.text ?? '').join('') : item.arguments;
        if (whole !== streamed[open!.index]) wrong(`item ${open!.index} is done with ${JSON.stringify(String(whole).slice(0, 80))}, its deltas gave ${JSON.stringify(String(streamed[open!.index]).slice(0, 80))}`);
        done.push(item);
        open = undefined;
        break;
      }
      default:
        wrong(`event ${JSON.stringify(e.type)} in the middle of the stream`);
    }
  }
  if (open !== undefined) wrong(`item ${open.index} is never done`);
  const response = last.response ?? {};
  t.expect(canonicalJson(response.output ?? []) === canonicalJson(done), `the final response's output differs from the items the stream finished`, GRAMMAR, ex);
  usageAddsUp(t, ex, response.usage);
  return { response, streamed };
}
