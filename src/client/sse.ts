/**
 * Server-sent events, decoded in layers: bytes → text (TextDecoder) → events (eventsource-parser).
 * Works on any `ReadableStream<Uint8Array>`, in browsers and in Node.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Yields each event of `body` as soon as its blank line arrives. Stopping early (a `break` in the caller)
 * cancels the body, which lets the connection go.
 *
 * @example
 *   for await (const event of readEvents(response.body!)) console.log(event.data);
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => ready.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      yield* ready.splice(0);
    }
    finished = true;
    // An event without its closing blank line is incomplete: the parser keeps it back, as EventSource does.
    parser.feed(decoder.decode());
    yield* ready.splice(0);
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
