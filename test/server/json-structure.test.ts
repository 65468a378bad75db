import { describe, expect, it } from 'vitest';
import { JsonStructure } from '../../src/server/http/json-structure.ts';

/** Feeds `text` in pieces cut at `cuts`; throws as the scanner does. */
function scan(text: string, limits: { jsonValues: number; jsonDepth: number }, cuts: number[]): void {
  const bytes = Buffer.from(text);
  const structure = new JsonStructure({ bytes: 1 << 30, ...limits });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    structure.push(bytes.subarray(from, cut));
    from = cut;
  }
}

// 9 values (4 members, 3 elements, 2 members), 3 levels; strings hold every structural character, escaped
// quotes and backslashes, and a multi-byte character.
const TEXT = '{"a": [1, "x,\\"]}{[", {"k\\\\": "v", "w": "é,}"}], "b\\"": null, "c": "\\\\", "d": {}}';

describe('JsonStructure', () => {
  it('counts the values and the depth of a text the same wherever its pieces are cut', () => {
    const bytes = Buffer.byteLength(TEXT);
    for (let a = 0; a <= bytes; a++) {
      for (const b of [a, Math.min(bytes, a + 1), Math.min(bytes, a + 2), bytes]) {
        expect(() => scan(TEXT, { jsonValues: 9, jsonDepth: 3 }, [a, b]), `cut at ${a}, ${b}`).not.toThrow();
        expect(() => scan(TEXT, { jsonValues: 8, jsonDepth: 3 }, [a, b]), `cut at ${a}, ${b}`).toThrow(/more than 8 JSON values/);
        expect(() => scan(TEXT, { jsonValues: 9, jsonDepth: 2 }, [a, b]), `cut at ${a}, ${b}`).toThrow(/more than 2 levels/);
      }
    }
  });

  it('reads one byte at a time as it reads the whole', () => {
    const cuts = Array.from({ length: Buffer.byteLength(TEXT) }, (_, i) => i);
    expect(() => scan(TEXT, { jsonValues: 9, jsonDepth: 3 }, cuts)).not.toThrow();
    expect(() => scan(TEXT, { jsonValues: 8, jsonDepth: 3 }, cuts)).toThrow(/JSON values/);
  });
});
