/**
 * The rules of a streamed Responses answer (decision D29), checked on one exchange: content type, `event:`
 * + `data:` framing with the event's name equal to its `type`, every event valid against the event schema,
 * `sequence_number` 0, 1, 2…, and the grammar: `response.created` and `response.in_progress` first; each
 * output item added, given its text or arguments in deltas, done (the deltas adding up to the `.done` text
 * or arguments and to the item in `response.output_item.done`); `response.completed` or
 * `response.incomplete` last, whose response holds exactly the items the stream finished. Returns that final
 * response, for comparison with a JSON answer.
 */
import { canonicalJson } from '../lib/canonical-json.ts';
import type { Tester } from './check.ts';
import type { Exchange } from './http.ts';
import { readNamedEvents } from './named-events.ts';

const RULE = 'D29';
const GRAMMAR = `${RULE}: the event grammar (ResponseStreamEvent)`;
const ENDS = new Set(['response.completed', 'response.incomplete']);

interface Item {
  type?: unknown;
  id?: unknown;
  arguments?: unknown;
  content?: Array<{ text?: unknown }>;
}

interface StreamEvent {
  type?: unknown;
  sequence_number?: unknown;
  output_index?: unknown;
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

  const wrong = (what: string) => t.fail(what, GRAMMAR, ex);
  const streamed: string[] = [];
  const done: Item[] = [];
  let open: number | undefined;
  for (const e of events.slice(2, -1)) {
    const index = typeof e.output_index === 'number' ? e.output_index : -1;
    switch (e.type) {
      case 'response.output_item.added':
        if (open !== undefined) wrong(`item ${index} is added while item ${open} is open`);
        if (index !== done.length) wrong(`item index ${index} where ${done.length} comes next`);
        open = index;
        streamed[index] = '';
        break;
      case 'response.output_text.delta':
      case 'response.function_call_arguments.delta':
        if (index !== open) wrong(`a delta for item ${index} while ${open === undefined ? 'no item' : `item ${open}`} is open`);
        else streamed[index] += String(e.delta);
        break;
      case 'response.output_text.done':
        if (index === open && e.text !== streamed[index]) wrong(`output_text.done of item ${index} has other text than its deltas`);
        break;
      case 'response.function_call_arguments.done':
        if (index === open && e.arguments !== streamed[index]) wrong(`function_call_arguments.done of item ${index} has other arguments than its deltas`);
        break;
      case 'response.content_part.added':
      case 'response.content_part.done':
        if (index !== open) wrong(`${e.type} for item ${index} while ${open === undefined ? 'no item' : `item ${open}`} is open`);
        break;
      case 'response.output_item.done': {
        if (index !== open) wrong(`output_item.done for item ${index} while ${open === undefined ? 'no item' : `item ${open}`} is open`);
        const item = e.item ?? {};
        const whole = item.type === 'message' ? item.content?.map((c) => c.text ?? '').join('') : item.arguments;
        if (whole !== streamed[index]) wrong(`item ${index} is done with ${JSON.stringify(String(whole).slice(0, 80))}, its deltas gave ${JSON.stringify(String(streamed[index]).slice(0, 80))}`);
        done.push(item);
        open = undefined;
        break;
      }
      default:
        wrong(`event ${JSON.stringify(e.type)} in the middle of the stream`);
    }
  }
  if (open !== undefined) wrong(`item ${open} is never done`);
  const response = last.response ?? {};
  t.expect(canonicalJson(response.output ?? []) === canonicalJson(done), `the final response's output differs from the items the stream finished`, GRAMMAR, ex);
  t.expect((last.type === 'response.incomplete') === (response.status === 'incomplete'), `${last.type} carries a response whose status is ${JSON.stringify(response.status)}`, GRAMMAR, ex);
  return { response, streamed };
}
