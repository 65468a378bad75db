import { hashParts, Rng } from '../../../../lib/random.ts';

/** An sRGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

/** The two kinds of picture the engine paints. */
export type Composition = 'landscape' | 'bokeh';

/** What a prompt decides about its pictures; the layout of each picture comes from its own seed. */
export interface Theme {
  /** Base hue in degrees. */
  hue: number;
  /** Offset of the accent hue from the base hue, in degrees (analogous, triadic or complementary). */
  accentOffset: number;
  /** 0–1. */
  saturation: number;
  /** Shift of every lightness, −0.25 (night) to +0.15 (pastel). */
  light: number;
  composition: Composition;
}

// A few words steer the colours so that "a red boat at sunset" looks warm; everything else comes from
// the prompt's hash. First match wins.
// A Map: the prompt's words are looked up, and an object also has `constructor` (a hue of NaN).
const HUES = new Map(Object.entries({
  red: 0, crimson: 350, rose: 345, pink: 330, magenta: 310, purple: 280, violet: 270, lavender: 260,
  indigo: 245, night: 230, blue: 220, sky: 205, ocean: 200, sea: 198, ice: 195, cyan: 185, teal: 175,
  mint: 150, emerald: 140, forest: 125, green: 120, lime: 90, yellow: 55, gold: 45, golden: 45,
  desert: 38, sand: 38, amber: 35, autumn: 25, orange: 28, sunset: 18, sunrise: 22, dawn: 350,
  dusk: 265, fire: 12, coral: 10, brown: 30,
}));
const DARK = new Set(['night', 'midnight', 'dark', 'dusk', 'storm', 'stormy', 'space', 'moon', 'noir']);
const PALE = new Set(['pastel', 'soft', 'watercolour', 'watercolor', 'misty', 'fog', 'foggy', 'snow', 'dawn']);
const SCENERY = new Set([
  'landscape', 'mountain', 'mountains', 'hill', 'hills', 'valley', 'cliff', 'lighthouse', 'sea', 'ocean',
  'beach', 'coast', 'lake', 'river', 'desert', 'field', 'fields', 'forest', 'sunset', 'sunrise', 'dawn', 'dusk',
]);

/**
 * The theme of a prompt: the same prompt always gives the same colours and kind of picture.
 *
 * @example
 * themeFor('A lighthouse on a cliff at dawn').composition; // 'landscape'
 */
export function themeFor(prompt: string): Theme {
  // Four bytes drawn from the prompt: the hue, the composition, the accent and the saturation.
  const rng = new Rng(hashParts('theme', prompt));
  const bytes = [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  const byte = (i: number): number => bytes[i]!;
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  const named = words.find((word) => HUES.has(word));
  const hue = named === undefined ? (byte(0) * 360) / 256 : HUES.get(named)! + (byte(0) % 16) - 8;
  const light = words.some((w) => DARK.has(w)) ? -0.25 : words.some((w) => PALE.has(w)) ? 0.12 : 0;
  const composition: Composition = words.some((w) => SCENERY.has(w)) || byte(1) < 112 ? 'landscape' : 'bokeh';
  return {
    hue: (hue + 360) % 360,
    accentOffset: [30, -30, 120, 180, 150][byte(2) % 5] ?? 30,
    saturation: 0.45 + (byte(3) / 255) * 0.4,
    light,
    composition,
  };
}

/**
 * HSL to sRGB; hue in degrees, saturation and lightness in 0–1 (clamped).
 *
 * @example
 * hsl(0, 1, 0.5); // [255, 0, 0]
 */
export function hsl(hue: number, saturation: number, lightness: number): Rgb {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = Math.min(1, Math.max(0, saturation));
  const l = Math.min(1, Math.max(0, lightness));
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number): number => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return Math.round(v * 255);
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/** Linear mix of two colours, t in 0–1. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [
    Math.round(a[0] + (b[0] - a[0]) * t),
    Math.round(a[1] + (b[1] - a[1]) * t),
    Math.round(a[2] + (b[2] - a[2]) * t),
  ];
}
