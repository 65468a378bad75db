/** A small seeded random generator (mulberry32), so that generated requests reproduce from `--seed`. */
export type Rng = () => number;

/**
 * @example
 * const rng = seeded(42);
 * rng(); // 0.6011037519201636, every time
 */
export function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of a non-empty list, chosen by the generator. */
export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

/** A seed derived from a run seed and a label, so each operation's cases do not shift when another's change. */
export function derive(seed: number, label: string): number {
  let h = seed >>> 0;
  for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
