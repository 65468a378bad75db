/** Reading chat completion streams in the server tests, through the project's one SSE reader. */
import { parseEventStream } from '../../src/client/sse.ts';

/** The `data` of each event of a whole stream, which must be framed without a problem. */
export async function readEvents(res: Response): Promise<string[]> {
  const { events, problems } = parseEventStream(await res.text());
  if (problems.length > 0) throw new Error(`the event stream is not well framed: ${problems.join('; ')}`);
  return events;
}
