/** Formats the engine decodes. */
export type AcceptedFormat = 'png' | 'jpeg' | 'webp';

/** What the first bytes of a file say it is: an accepted format, or the name of another one. */
export type Sniffed = { accepted: true; format: AcceptedFormat } | { accepted: false; name: string | undefined };

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  Buffer.from(bytes.subarray(start, end)).toString('latin1');

/**
 * Identifies an image by its signature, so the error can name what was sent ("a GIF image") and only
 * PNG, JPEG and WebP ever reach the decoder.
 *
 * @example
 * sniffFormat(Buffer.from('GIF89a...')); // { accepted: false, name: 'GIF' }
 */
export function sniffFormat(bytes: Uint8Array): Sniffed {
  const at = (i: number): number => bytes[i] ?? -1;
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return { accepted: true, format: 'png' };
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return { accepted: true, format: 'jpeg' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { accepted: true, format: 'webp' };
  return { accepted: false, name: otherFormat(bytes) };
}

function otherFormat(bytes: Uint8Array): string | undefined {
  const head = ascii(bytes, 0, 12);
  if (head.startsWith('GIF8')) return 'GIF';
  if (head.startsWith('BM')) return 'BMP';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'TIFF';
  if (head.startsWith('%PDF')) return 'PDF';
  if (head.slice(4, 8) === 'ftyp') return /avi[fs]/.test(head.slice(8, 12)) ? 'AVIF' : 'HEIF';
  if (/^\s*</.test(head) && ascii(bytes, 0, 1024).includes('<svg')) return 'SVG';
  return undefined;
}
