/**
 * A byte-pair vocabulary (every token's bytes, and the rank of any byte sequence) held in SharedArrayBuffers,
 * so that every text worker reads one copy. gpt-tokenizer builds a Map of 200,000 strings and more in each
 * thread that loads it: 50 to 80 MB per text worker for o200k_base, which with one worker per core was the
 * largest fixed part of the server's memory (docs/reliability.md). Here the whole table is about 4 MB, built
 * once per process.
 *
 * Layout: the tokens' bytes one after the other (`bytes`), where each starts (`offsets`, one more than there
 * are tokens), and an open-addressing hash table from byte sequences to `rank + 1` (`slots`, 0 = empty; at
 * most half full, so a probe ends within a few steps).
 */

/** The buffers of a vocabulary: structured-cloned to a worker, they are shared, not copied. */
export interface SharedVocabulary {
  bytes: SharedArrayBuffer;
  offsets: SharedArrayBuffer;
  slots: SharedArrayBuffer;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const BASE64 = new Int8Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[c.charCodeAt(0)] = i;

/**
 * Builds the shared buffers from a vocabulary in tiktoken's file format: one token per line, its bytes in
 * base64, a space, its rank. Read straight from the file's bytes, so building costs little more memory than
 * the result (evaluating gpt-tokenizer's JavaScript rank list cost about 100 MB, most of it kept by the
 * allocator afterwards).
 */
export function buildVocabulary(file: Uint8Array): SharedVocabulary {
  const lines = tokenLines(file);
  let ranks = 0;
  for (const rank of lines.rank) ranks = Math.max(ranks, rank + 1);
  const offsets = new Uint32Array(new SharedArrayBuffer(4 * (ranks + 1)));
  // First the length of each token (kept in the next entry), then the running sum: where each token starts.
  for (let line = 0; line < lines.count; line++) offsets[lines.rank[line]! + 1] = decodedLength(file, lines.start[line]!, lines.split[line]!);
  for (let rank = 1; rank <= ranks; rank++) offsets[rank]! += offsets[rank - 1]!;
  const bytes = new Uint8Array(new SharedArrayBuffer(offsets[ranks]!));
  const slots = new Int32Array(new SharedArrayBuffer(4 * slotCount(ranks)));
  for (let line = 0; line < lines.count; line++) {
    const rank = lines.rank[line]!;
    decodeBase64(file, lines.start[line]!, lines.split[line]!, bytes, offsets[rank]!);
    let slot = hash(bytes, offsets[rank]!, offsets[rank + 1]!) & (slots.length - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (slots.length - 1);
    slots[slot] = rank + 1;
  }
  return { bytes: bytes.buffer as SharedArrayBuffer, offsets: offsets.buffer as SharedArrayBuffer, slots: slots.buffer as SharedArrayBuffer };
}

/** For each non-empty line: where its base64 starts, where it ends (the space), and its rank. */
function tokenLines(file: Uint8Array): { count: number; start: Uint32Array; split: Uint32Array; rank: Uint32Array } {
  let lineCount = 1; // a last line may have no newline
  for (let at = file.indexOf(NEWLINE); at >= 0; at = file.indexOf(NEWLINE, at + 1)) lineCount++;
  const lines = { count: 0, start: new Uint32Array(lineCount), split: new Uint32Array(lineCount), rank: new Uint32Array(lineCount) };
  for (let start = 0; start < file.length; ) {
    let end = file.indexOf(NEWLINE, start);
    if (end < 0) end = file.length;
    if (end > start) {
      const split = file.indexOf(SPACE, start);
      if (split < 0 || split > end) throw new Error(`vocabulary line at byte ${start} has no rank`);
      let rank = 0;
      for (let i = split + 1; i < end; i++) {
        const digit = file[i]! - 0x30;
        if (digit < 0 || digit > 9) throw new Error(`vocabulary line at byte ${start} has a bad rank`);
        rank = rank * 10 + digit;
      }
      lines.start[lines.count] = start;
      lines.split[lines.count] = split;
      lines.rank[lines.count++] = rank;
    }
    start = end + 1;
  }
  return { ...lines, rank: lines.rank.subarray(0, lines.count) };
}

function decodedLength(file: Uint8Array, start: number, end: number): number {
  let padding = 0;
  while (end - padding > start && file[end - padding - 1] === 0x3d /* = */) padding++;
  return Math.floor(((end - start) * 3) / 4) - padding;
}

function decodeBase64(file: Uint8Array, start: number, end: number, out: Uint8Array, at: number): void {
  let bits = 0;
  let count = 0;
  for (let i = start; i < end; i++) {
    const value = BASE64[file[i]!]!;
    if (value < 0) break; // padding
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
}

/** A power of two at least twice the number of tokens. */
function slotCount(tokens: number): number {
  let count = 1024;
  while (count < 2 * tokens) count *= 2;
  return count;
}

/** FNV-1a over bytes[start, end). */
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Reads a shared vocabulary: ranks of byte sequences, and bytes of ranks. */
export class Vocabulary {
  private readonly bytes: Uint8Array;
  private readonly offsets: Uint32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(readonly shared: SharedVocabulary) {
    this.bytes = new Uint8Array(shared.bytes);
    this.offsets = new Uint32Array(shared.offsets);
    this.slots = new Int32Array(shared.slots);
    this.mask = this.slots.length - 1;
  }

  /** The number of ranks (unused ones included). */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** The rank of the byte sequence `data[start, end)`, or -1 when it is not a token. */
  rankOf(data: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const { bytes, offsets, slots, mask } = this;
    for (let slot = hash(data, start, end) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const rank = entry - 1;
      const from = offsets[rank]!;
      if (offsets[rank + 1]! - from !== length) continue;
      let i = 0;
      while (i < length && bytes[from + i] === data[start + i]) i++;
      if (i === length) return rank;
    }
  }

  /** The bytes of a token (a view into the shared buffer: do not change them); empty for an unknown rank. */
  bytesOf(rank: number): Uint8Array {
    if (!(rank >= 0 && rank < this.size)) return new Uint8Array(0);
    return this.bytes.subarray(this.offsets[rank]!, this.offsets[rank + 1]!);
  }
}
