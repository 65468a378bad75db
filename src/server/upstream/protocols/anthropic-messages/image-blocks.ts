/**
 * A chat image (a URL) as an Anthropic image block: a base64 `data:` URL becomes a `base64` source, an
 * http(s) URL a `url` source. Anthropic takes JPEG, PNG, GIF and WebP only.
 */
import { unsupported } from '../failures.ts';
import type { Json } from '../read.ts';
import { PROTOCOL } from './name.ts';

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** `data:<media type>;base64,<data>`; the `s` flag lets the data hold line breaks, as some encoders write. */
const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * @example
 * imageBlock('https://example.com/cat.png'); // { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } }
 */
export function imageBlock(url: string): Json {
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  const data = DATA_URL.exec(url);
  if (!data) {
    throw unsupported(PROTOCOL, 'an image must be an http(s) URL or a base64 `data:` URL; this one is neither. Send the image in one of those forms.');
  }
  const mediaType = data[1]!.toLowerCase();
  if (!MEDIA_TYPES.includes(mediaType)) {
    throw unsupported(PROTOCOL, `it takes JPEG, PNG, GIF and WebP images, not ${mediaType}. Convert the image to one of those.`);
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: data[2] } };
}
