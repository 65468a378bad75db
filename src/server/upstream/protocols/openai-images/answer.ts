/** An OpenAI Images answer (`{created, data: [{b64_json} | {url}], usage?}`) read back as the PNGs it carries. */
import { malformed } from '../failures.ts';
import { isRecord } from '../read.ts';
import { PROTOCOL } from './name.ts';

/** Standard base64, as OpenAI writes it: no line breaks, padding only at the end. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The PNG bytes of each `data[].b64_json`, in order. Fewer pictures than asked for are returned as they came
 * (the caller decides what that means for the client); more than `expected`, an entry without `b64_json`, or
 * a `b64_json` that is not a base64 PNG, is a `malformed` upstream error.
 *
 * @example
 * const pngs = imagesFrom(await client.json(path, body, signal), order.n);
 */
export function imagesFrom(json: unknown, expected: number): Buffer[] {
  if (!isRecord(json) || !Array.isArray(json.data)) throw malformed(PROTOCOL, 'an answer that is not an image response (no `data` list)');
  const data: unknown[] = json.data;
  if (data.length > expected) throw malformed(PROTOCOL, `${data.length} images where the request asked for ${expected}`);
  return data.map((item, index) => {
    if (!isRecord(item)) throw malformed(PROTOCOL, `image ${index} as something that is not an object`);
    if (typeof item.b64_json === 'string') return pngOf(item.b64_json, index);
    if (typeof item.url === 'string') {
      throw malformed(
        PROTOCOL,
        'image URLs (`url`) where the gateway needs the images themselves in base64 (`b64_json`), as a DALL·E model answers: the ' +
          'gateway sends no `response_format` (the GPT Image models refuse it, and always answer base64). ' +
          "Name a GPT Image model (such as gpt-image-1) as this upstream's model",
      );
    }
    throw malformed(PROTOCOL, `image ${index} without its \`b64_json\``);
  });
}

function pngOf(base64: string, index: number): Buffer {
  // Buffer.from skips characters that are not base64 instead of failing, so the text is checked first.
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) throw malformed(PROTOCOL, `image ${index} with a \`b64_json\` that is not base64`);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length <= PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    throw malformed(PROTOCOL, `image ${index} with a \`b64_json\` that is not a PNG (the gateway sends no \`output_format\`: PNG, the default, is what it expects)`);
  }
  return bytes;
}
