/**
 * A fetch that answers from a script instead of the network, for the client's edge cases that the reference
 * server never produces (an error event mid-stream, a cut connection, a proxy's HTML page). It records every
 * request and whether the answer's body was cancelled.
 */
export interface FakeAnswer {
  status?: number;
  contentType?: string;
  /** Pieces of the body, sent one per read; bytes are sent as they are, so a test can split a character. */
  pieces: (string | Uint8Array)[];
  /** Keep the body open after the last piece (a stream still being generated). */
  hang?: boolean;
}

export interface FakeFetch {
  fetch: (request: Request) => Promise<Response>;
  /** Requests that went out (an already aborted one does not). */
  requests: Request[];
  /** Bodies sent so far, in order. */
  bodies: unknown[];
  /** True once the client cancelled the answer's body or aborted the request (stopped reading). */
  readonly cancelled: boolean;
}

export function fakeFetch(answer: FakeAnswer): FakeFetch {
  const encoder = new TextEncoder();
  const state = { cancelled: false };
  const requests: Request[] = [];
  const bodies: unknown[] = [];
  return {
    requests,
    bodies,
    get cancelled() {
      return state.cancelled;
    },
    async fetch(request) {
      // As a real fetch: an aborted signal sends nothing, and aborting later errors the body being read.
      request.signal.throwIfAborted();
      requests.push(request);
      bodies.push(request.body ? await request.clone().json() : undefined);
      const pieces = [...answer.pieces];
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          request.signal.addEventListener('abort', () => {
            state.cancelled = true;
            controller.error(request.signal.reason);
          });
        },
        pull(controller) {
          const piece = pieces.shift();
          if (piece !== undefined) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
          else if (!answer.hang) controller.close();
          else return new Promise<void>(() => {}); // never settles: the server is still "thinking"
        },
        cancel() {
          state.cancelled = true;
        },
      });
      return new Response(body, {
        status: answer.status ?? 200,
        headers: { 'content-type': answer.contentType ?? 'text/event-stream; charset=utf-8' },
      });
    },
  };
}

/** An SSE event carrying `data` as JSON (or as it is, for `[DONE]` and broken events). */
export function event(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A chat.completion.chunk with one choice. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1763769600, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] };
}
