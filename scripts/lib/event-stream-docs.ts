/**
 * The documentation form of the contract's event streams. The contract describes a `text/event-stream` answer
 * as what travels, a string (`contentMediaType: text/event-stream`) whose events' data its `contentSchema`
 * describes: right for validating a stream's text, but Redoc renders it as a bare "string". For the docs page
 * only, each such schema is drawn as the OpenAPI registry suggests for SSE, "a complete event stream modeled as
 * if it were a JSON array of event objects": an array of events, each with its `data` (the `contentSchema`)
 * and, where the stream names its events, its `event`. How a stream frames its events beyond their data is
 * declared by the stream schema itself, in `x-event-stream` (see ChatCompletionEventStream.yaml), so a new
 * streaming operation is documented the same way by declaring its stream the same way.
 */
import { followRefs } from '../../src/contract/refs.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** `x-event-stream` of a stream schema. */
export interface EventStreamFraming {
  /** The data's property whose value each event's `event:` line repeats; absent when events have only data. */
  eventName?: string;
  /** The data of the stream's last event, when that is not JSON (`[DONE]`); absent when the stream just ends. */
  end?: string;
  /** The rules its events follow, by the conformance suite's rule that checks them (`chat-stream`…); not rendered. */
  grammar?: string;
}

const EVENT_STREAM = 'text/event-stream';

/**
 * A copy of a bundled description with every event-stream schema in its documentation form, and the stream's
 * description (its grammar) added to the description of the response that carries it: Redoc 3 shows no
 * description of a body's own schema, but always the response's. The rest is untouched. Only for rendering:
 * the bundle itself stays the contract.
 *
 * @example
 *   writeFileSync(forDocs, JSON.stringify(documentEventStreams(JSON.parse(readFileSync(bundle, 'utf8')))));
 */
export function documentEventStreams<T>(spec: T): T {
  const document = spec as Json;
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    if (isEventStream(node)) return eventArray(node, document);
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
    const grammars = streamDescriptions(node, document).filter((text) => !String(node.description ?? '').includes(text));
    if (grammars.length > 0 && typeof node.description === 'string') copy.description = [node.description.trimEnd(), ...grammars].join('\n\n');
    return copy;
  };
  return visit(document) as T;
}

/** The descriptions of the event streams among the media types of a response (or request body). */
function streamDescriptions(carrier: JsonObject, document: Json): string[] {
  if (!isObject(carrier.content)) return [];
  return Object.values(carrier.content).flatMap((media) => {
    const schema = isObject(media) && isObject(media.schema) ? resolve(media.schema, document) : {};
    return isEventStream(schema) && typeof schema.description === 'string' ? [schema.description.trimEnd()] : [];
  });
}

function isObject(node: Json | undefined): node is JsonObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

function isEventStream(schema: JsonObject): schema is JsonObject & { contentSchema: JsonObject } {
  return schema.contentMediaType === EVENT_STREAM && isObject(schema.contentSchema);
}

function eventArray(stream: JsonObject & { contentSchema: JsonObject }, document: Json): JsonObject {
  const { type: _type, contentMediaType: _media, contentSchema, 'x-event-stream': declared, ...rest } = stream;
  const framing = (isObject(declared) ? declared : {}) as EventStreamFraming;
  const properties: JsonObject = {};
  if (framing.eventName) {
    const names = eventNames(contentSchema, framing.eventName, document);
    properties.event = {
      type: 'string',
      description: `The \`event:\` line: the event's name, its data's \`${framing.eventName}\`.`,
      ...(names && { enum: names }),
    };
  }
  properties.data = framing.end
    ? {
        description: `The \`data:\` line: one event's JSON, or \`${framing.end}\` in the last event.`,
        // The data's own variants beside the end's (a chat chunk, an error, `[DONE]`), one choice for the reader.
        oneOf: [
          ...variantsOf(contentSchema, document),
          { title: framing.end, type: 'string', const: framing.end, description: `\`data: ${framing.end}\`, the last event: the stream ends here.` },
        ],
      }
    : // As it is: the data schema's own description (the grammar of the events) is what a reader needs here.
      contentSchema;
  return {
    ...rest,
    title: rest.title ?? 'Event stream',
    type: 'array',
    items: {
      title: 'Event',
      description: `One event: ${framing.eventName ? 'an `event:` line and ' : ''}a \`data:\` line, then a blank line.`,
      type: 'object',
      required: Object.keys(properties),
      properties,
    },
  };
}

/** A data schema's variants when it is a choice between several, or the schema itself. */
function variantsOf(data: JsonObject, document: Json): Json[] {
  const schema = resolve(data, document);
  return Array.isArray(schema.oneOf) ? schema.oneOf : [data];
}

/** The names the stream's events can have: each variant's constant `property`; undefined if one has none. */
function eventNames(data: JsonObject, property: string, document: Json): string[] | undefined {
  const schema = resolve(data, document);
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
  const names: string[] = [];
  for (const variant of variants) {
    const properties = isObject(variant) ? resolve(variant, document).properties : undefined;
    const name = isObject(properties) && isObject(properties[property]) ? properties[property].const : undefined;
    if (typeof name !== 'string') return undefined;
    names.push(name);
  }
  return names;
}

/** The schema a local `$ref` (`#/components/schemas/…`) points to (with the contract's resolver), or the schema itself. */
function resolve(schema: JsonObject, document: Json): JsonObject {
  const node = followRefs<Json | undefined>(document, schema);
  return isObject(node) ? node : {};
}
