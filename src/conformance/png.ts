/**
 * Images for and from the image endpoints, without native code (the suite installs with no dependencies):
 * a PNG decoder (every colour type and bit depth, interlaced or not) and encoder on `node:zlib`, and the
 * sizes of JPEG, WebP and GIF pictures, whose pixels the suite does not need.
 */
import { deflateSync, inflateSync } from 'node:zlib';

export interface DecodedImage {
  format: string;
  width: number;
  height: number;
  /** RGBA pixels, row by row; PNG only. */
  pixels?: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel of each PNG colour type: grey, RGB, palette index, grey and alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Decodes base64 image data (a bare string or a `data:` URL); throws when it is not an image.
 * @example
 * const img = await decodeImage(result.data[0].b64_json); // { format: 'png', width: 512, height: 512, pixels }
 */
export async function decodeImage(b64: string): Promise<DecodedImage> {
  const bytes = Buffer.from(b64.replace(/^data:[^,]*,/, ''), 'base64');
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return decodePng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { format: 'jpeg', ...jpegSize(bytes) };
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return { format: 'webp', ...webpSize(bytes) };
  if (bytes.toString('latin1', 0, 3) === 'GIF') return { format: 'gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  throw new Error('not a PNG, JPEG, WebP or GIF image');
}

function decodePng(bytes: Buffer): DecodedImage {
  let at = 8;
  let header: Buffer | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const data: Buffer[] = [];
  while (at + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) throw new Error(`PNG chunk ${type} is cut off`);
    if (type === 'IHDR') header = body;
    else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header || data.length === 0) throw new Error('PNG without IHDR or IDAT');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colour, , , interlace] = [header[8]!, header[9]!, header[10], header[11], header[12]];
  const channels = CHANNELS[colour];
  if (!channels) throw new Error(`PNG colour type ${colour} is not valid`);
  const raw = inflateSync(Buffer.concat(data));
  const pixels = Buffer.alloc(width * height * 4);
  const bitsPerPixel = channels * depth;
  const step = Math.max(1, bitsPerPixel >> 3);
  let offset = 0;
  // Adam7 passes, or the whole picture as one pass.
  const passes = interlace === 1
    ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]
    : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes as Array<[number, number, number, number]>) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const stride = Math.ceil((w * bitsPerPixel) / 8);
    let previous = Buffer.alloc(stride);
    for (let row = 0; row < h; row++) {
      const filter = raw[offset]!;
      const line = Buffer.from(raw.subarray(offset + 1, offset + 1 + stride));
      offset += 1 + stride;
      unfilter(filter, line, previous, step);
      for (let col = 0; col < w; col++) {
        const target = ((y0 + row * dy) * width + (x0 + col * dx)) * 4;
        writePixel(pixels, target, line, col, depth, colour, palette, transparency);
      }
      previous = line;
    }
  }
  return { format: 'png', width, height, pixels };
}

function unfilter(filter: number, line: Buffer, previous: Buffer, step: number): void {
  for (let i = 0; i < line.length; i++) {
    const left = i >= step ? line[i - step]! : 0;
    const up = previous[i]!;
    const upLeft = i >= step ? previous[i - step]! : 0;
    let add = 0;
    if (filter === 1) add = left;
    else if (filter === 2) add = up;
    else if (filter === 3) add = (left + up) >> 1;
    else if (filter === 4) {
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      add = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    } else if (filter !== 0) throw new Error(`PNG filter type ${filter} is not valid`);
    line[i] = (line[i]! + add) & 0xff;
  }
}

/** One pixel of a decoded line as 8-bit RGBA. */
function writePixel(out: Buffer, at: number, line: Buffer, col: number, depth: number, colour: number, palette?: Buffer, trns?: Buffer): void {
  const sample = (index: number): number => {
    if (depth === 8) return line[index]!;
    if (depth === 16) return line[index * 2]!; // the high byte
    const bit = index * depth;
    const value = (line[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
    return colour === 3 ? value : Math.round((value * 255) / ((1 << depth) - 1));
  };
  const channels = CHANNELS[colour]!;
  const s = (c: number) => sample(col * channels + c);
  let rgba: [number, number, number, number];
  if (colour === 0) rgba = [s(0), s(0), s(0), 255];
  else if (colour === 2) rgba = [s(0), s(1), s(2), 255];
  else if (colour === 3) {
    const i = s(0);
    rgba = [palette?.[i * 3] ?? 0, palette?.[i * 3 + 1] ?? 0, palette?.[i * 3 + 2] ?? 0, trns?.[i] ?? 255];
  } else if (colour === 4) rgba = [s(0), s(0), s(0), s(1)];
  else rgba = [s(0), s(1), s(2), s(3)];
  out[at] = rgba[0];
  out[at + 1] = rgba[1];
  out[at + 2] = rgba[2];
  out[at + 3] = rgba[3];
}

function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) throw new Error('damaged JPEG');
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error('JPEG without a frame header');
}

function webpSize(bytes: Buffer): { width: number; height: number } {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  throw new Error('WebP of an unknown kind');
}

/** An 8-bit RGB PNG of raw pixels. */
function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rgb.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A square PNG with a colour gradient, so that any change of a pixel shows. */
export async function gradientPng(size: number): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      pixels[i] = (x * 255) / (size - 1);
      pixels[i + 1] = (y * 255) / (size - 1);
      pixels[i + 2] = ((x + y) * 127) / (size - 1);
    }
  }
  return encodePng(size, size, pixels);
}

/** A square black PNG mask with a white square (the area to modify) at `[from, to)` on both axes. */
export async function squareMaskPng(size: number, from: number, to: number): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = from; y < to; y++) pixels.fill(255, (y * size + from) * 3, (y * size + to) * 3);
  return encodePng(size, size, pixels);
}

/** How many pixels differ between two decoded PNGs of the same size, counting only where `include` says. */
export function changedPixels(a: DecodedImage, b: DecodedImage, include: (x: number, y: number) => boolean): number {
  if (!a.pixels || !b.pixels) throw new Error('only PNG pixels are compared');
  let changed = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!include(x, y)) continue;
      const i = (y * a.width + x) * 4;
      if (a.pixels.readUInt32BE(i) !== b.pixels.readUInt32BE(i)) changed++;
    }
  }
  return changed;
}
