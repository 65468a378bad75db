import { describe, expect, it } from 'vitest';
import { forEachAsciiChunk } from '../../src/server/engine/text/ascii-chunks.ts';
import { Rng } from '../../src/server/engine/text/random.ts';

// o200k_base's own pre-tokenizer expression, as gpt-tokenizer builds it (encodingParams/constants.js).
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const O200K_SPLIT = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);

function chunks(text: string): string[] {
  const out: string[] = [];
  forEachAsciiChunk(text, (chunk) => out.push(chunk));
  return out;
}

/** Random ASCII text weighted toward the characters where the expression's alternatives meet. */
function randomText(rng: Rng): string {
  const alphabets = ['abcxyz', 'ABCXYZ', '0123456789', ' ', '  \t', '\n\r', "'", 'sdmtlvreSDMTLVRE', '-/.,!?:;_"()[]{}<|>@#', '\u0001\u001f\u007f\u000b\u000c'];
  let text = '';
  const length = rng.int(0, 24);
  for (let i = 0; i < length; i++) text += rng.pick(rng.pick(alphabets).split(''));
  return text;
}

describe('forEachAsciiChunk', () => {
  it('cuts ASCII text exactly as the o200k_base expression does', () => {
    const rng = new Rng(2026);
    const samples = [
      '',
      "It's 2024-05!",
      'Ticket Mo2u0T6aT2iChXr9khDGA-0000040002: Write three sentences about tides and the moon.',
      "  hello\n\n  world  \t\nWE'LL see'S   ",
      'a/b//c\r\n/x <|endoftext|> ABCdef ABC abc',
      ...Array.from({ length: 20_000 }, () => randomText(rng)),
    ];
    for (const text of samples) expect(chunks(text), JSON.stringify(text)).toEqual(text.match(O200K_SPLIT) ?? []);
  });
});
