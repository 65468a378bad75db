/**
 * Images each key has been given during this run, per path, and what the server last said remains for it
 * (`x-ratelimit-remaining-images`, when it sends the header): checks that need images plan from the
 * server's own figure, so a key used earlier the same day is not taken for a quota bug.
 */
export class ImageLedger {
  private readonly spent = new Map<string, Map<string, number>>();
  private readonly told = new Map<string, number>();

  /** Records the server's own count of what remains today for a key. */
  learn(key: string, remaining: number): void {
    this.told.set(key, remaining);
  }

  /** Images left today for the key: the server's last figure, else the tier's quota less what this run was given. */
  left(key: string, quota: number): number {
    return this.told.get(key) ?? Math.max(0, quota - this.of(key));
  }

  /** Whether the server has told what remains for the key. */
  knows(key: string): boolean {
    return this.told.has(key);
  }

  add(key: string, images: number, path: string): void {
    const byPath = this.spent.get(key) ?? new Map<string, number>();
    byPath.set(path, (byPath.get(path) ?? 0) + images);
    this.spent.set(key, byPath);
  }

  /** Images given to the key, on every path or only on those `only` accepts. */
  of(key: string, only: (path: string) => boolean = () => true): number {
    let total = 0;
    for (const [path, n] of this.spent.get(key) ?? []) if (only(path)) total += n;
    return total;
  }
}
