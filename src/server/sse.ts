/**
 * Server-sent events as OpenAI sends them: `data: <json>` and a blank line per event, `data: [DONE]` last.
 * The writer stops as soon as the client goes away, so no generation runs for nobody.
 */
import type { ServerResponse } from 'node:http';

export interface SseWriter {
  /** False once the client has disconnected: stop producing. */
  readonly open: boolean;
  send(data: unknown): void;
  /** Raw event text (for `[DONE]`, or a deliberately broken event). */
  sendRaw(data: string): void;
  /** Waits `ms` (the per-token delay) unless the client leaves first. */
  pause(ms: number): Promise<void>;
  end(): void;
}

export function openEventStream(res: ServerResponse, headers: Record<string, string | number | string[]>): SseWriter {
  let open = true;
  let wake: (() => void) | undefined;
  res.on('close', () => {
    open = false;
    wake?.();
  });
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  return {
    get open() {
      return open;
    },
    send(data) {
      if (open) res.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    sendRaw(data) {
      if (open) res.write(`data: ${data}\n\n`);
    },
    pause(ms) {
      if (!open || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    },
    end() {
      if (open) res.end();
    },
  };
}
