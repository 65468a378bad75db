import { describe, expect, it } from 'vitest';
import { pack } from '../../src/server/domain/engine/images/canvas.ts';
import { inpaint } from '../../src/server/domain/engine/images/inpaint.ts';

describe('inpaint', () => {
  it('changes a masked pixel visibly even where the painted pattern equals the source', () => {
    const pixels = Uint32Array.from([pack(0, 0, 0), pack(128, 128, 128), pack(255, 255, 255), pack(10, 200, 90)]);
    const source = { width: 4, height: 1, hasAlpha: false, pixels };
    const result = inpaint(source, Uint8Array.from([1, 1, 1, 0]), { width: 4, height: 1, pixels: pixels.slice() });
    for (let p = 0; p < 3; p++) {
      const [before, after] = [pixels[p]!, result.pixels[p]!];
      const change = [0, 8, 16].reduce((sum, shift) => sum + Math.abs(((before >>> shift) & 255) - ((after >>> shift) & 255)), 0);
      expect(change, `pixel ${p}`).toBeGreaterThanOrEqual(24);
    }
    expect(result.pixels[3]).toBe(pixels[3]);
    expect(source.pixels).toEqual(pixels); // the source is not modified in place
  });
});
