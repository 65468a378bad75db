/**
 * A bounded cache in two generations: new entries go to the young map; when it is full, the old map is
 * dropped whole and the young one becomes old. An entry found in the old map moves back to the young
 * one, so what is used again stays, and what was seen once (an id echoed from one request) leaves
 * within two generations.
 *
 * Why not a Map evicting its first key: V8 leaves a hole for each deleted entry until the table is
 * rebuilt, and `keys().next()` walks past every hole, so a full Map that forgets one entry per insert
 * spends thousands of steps per insert. Dropping a whole generation costs nothing per entry.
 */
export class Generations<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  /** At most `2 × perGeneration` entries are kept. */
  constructor(private readonly perGeneration: number) {}

  /**
   * @example
   * const cache = new Generations<string, number>(1000);
   * cache.set('a', 1);
   * cache.get('a'); // 1
   */
  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) {
      this.old.delete(key); // the old map is never walked, so its holes cost nothing
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.perGeneration) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
