import { blendCircle, createRaster, DISC, fillBelow, fillGradient, fillRadialGradient, GLOW, RING, type Raster } from './canvas.ts';
import type { Rng } from '../../../../lib/random.ts';
import { hsl, mix, type Rgb, type Theme } from './theme.ts';

/**
 * Paints an abstract picture: the theme (from the prompt) sets colours and kind, the generator (from
 * prompt, size and index) sets the layout, so every image of a prompt is different but related.
 *
 * @example
 * const raster = renderArtwork(512, 512, themeFor('a quiet lake'), new Rng(hashParts('generate', 'a quiet lake', 512, 512, 0)));
 */
export function renderArtwork(width: number, height: number, theme: Theme, rng: Rng): Raster {
  const raster = createRaster(width, height);
  // Each picture of a prompt drifts a little in hue so a batch of n does not look like one image n times.
  const hue = theme.hue + rng.range(-12, 12);
  if (theme.composition === 'landscape') paintLandscape(raster, { ...theme, hue }, rng);
  else paintBokeh(raster, { ...theme, hue }, rng);
  return raster;
}

/** A sky, a sun with its halo and three to five ranges of rolling hills fading into the distance. */
function paintLandscape(raster: Raster, theme: Theme, rng: Rng): void {
  const { width, height } = raster;
  const { hue, accentOffset: offset, saturation: s, light } = theme;
  const short = Math.min(width, height);
  const horizon: Rgb = hsl(hue + offset * 0.5, s * 0.9, 0.8 + light * 0.6);
  const sky: Rgb[] = [hsl(hue - 10, s * 0.8, 0.3 + light), hsl(hue, s, 0.55 + light), horizon];
  // A level sky: each row is one colour, which paints and compresses fastest.
  fillGradient(raster, sky, Math.PI / 2);

  const sunX = width * rng.range(0.15, 0.85);
  const sunY = height * rng.range(0.12, 0.42);
  const sunRadius = short * rng.range(0.05, 0.1);
  const sun = hsl(hue + offset, 0.9, 0.88 + light * 0.3);
  blendCircle(raster, sunX, sunY, sunRadius * rng.range(2.5, 4), sun, 0.5, GLOW);
  blendCircle(raster, sunX, sunY, sunRadius, sun, 0.95, DISC);

  const layers = rng.int(3, 5);
  const ground = hsl(hue + offset, s * 0.75, 0.22 + light * 0.5);
  const ridges: Float64Array[] = [];
  for (let k = 0; k < layers; k++) {
    const depth = (k + 1) / layers; // 1 is nearest
    const baseline = height * (0.45 + 0.4 * (k / layers) + rng.range(0, 0.06));
    const waves = [1, 2, 3].map((order) => ({
      amplitude: (height * rng.range(0.02, 0.07) * (0.6 + depth)) / order,
      frequency: (Math.PI * 2 * rng.range(0.5, 1.6) * order) / width,
      phase: rng.range(0, Math.PI * 2),
    }));
    const ridge = new Float64Array(width);
    for (let x = 0; x < width; x++) {
      let y = baseline;
      for (const wave of waves) y += wave.amplitude * Math.sin(wave.frequency * x + wave.phase);
      ridge[x] = y;
    }
    ridges.push(ridge);
  }
  // cover[x]: the highest edge of any nearer range, below which this range is hidden.
  let cover = new Float64Array(width).fill(height);
  const covers: Float64Array[] = [];
  for (let k = layers - 1; k >= 0; k--) {
    covers[k] = cover;
    const ridge = ridges[k]!;
    cover = cover.map((y, x) => Math.min(y, ridge[x]!));
  }
  for (let k = 0; k < layers; k++) {
    // Far ranges take the colour of the haze at the horizon; near ones the ground's.
    const top = mix(horizon, ground, 0.25 + 0.75 * ((k + 1) / layers));
    fillBelow(raster, ridges[k]!, covers[k]!, top, mix(top, [0, 0, 0], 0.35));
  }
}

/** A deep radial light with a soft glow and out-of-focus discs and rings floating over it. */
function paintBokeh(raster: Raster, theme: Theme, rng: Rng): void {
  const { width, height } = raster;
  const { hue, accentOffset: offset, saturation: s, light } = theme;
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  const background: Rgb[] = [
    hsl(hue + offset, s * 0.9, 0.58 + light),
    hsl(hue + offset * 0.5, s, 0.38 + light),
    hsl(hue, s, 0.16 + light * 0.5),
  ];
  // One pass paints both the backdrop and its main light: cheaper than a gradient plus a big glow.
  const lightX = width * rng.range(-0.1, 1.1);
  const lightY = height * rng.range(-0.1, 1.1);
  fillRadialGradient(raster, background, lightX, lightY, long * rng.range(0.9, 1.4));

  const glow = hsl(hue + rng.pick([0, offset]), s, 0.6 + light * 0.5);
  blendCircle(raster, width * rng.next(), height * rng.next(), short * rng.range(0.25, 0.4), glow, 0.5, GLOW);
  const count = rng.int(7, 12);
  for (let k = 0; k < count; k++) {
    const colour = hsl(hue + rng.pick([0, offset, offset / 2]), s, rng.range(0.65, 0.85) + light * 0.3);
    const shape = rng.pick([DISC, DISC, DISC, RING, GLOW]);
    const opacity = shape === GLOW ? rng.range(0.5, 0.8) : rng.range(0.18, 0.45);
    const x = width * rng.range(-0.05, 1.05);
    const y = height * rng.range(-0.05, 1.05);
    blendCircle(raster, x, y, short * rng.range(0.03, 0.17), colour, opacity, shape);
  }
}
