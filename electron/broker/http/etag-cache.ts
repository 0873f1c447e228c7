/** A cached reply: the validator the server gave and the already-parsed body. */
export interface CachedReply {
  readonly etag: string;
  readonly value: unknown;
}

/**
 * ETag cache for list reads (docs/api.md §Headers: `ETag`, `If-None-Match` → 304).
 *
 * The blotter polls `/orders` every few seconds; with `If-None-Match` an unchanged list comes
 * back as an empty 304 and we reuse the value parsed last time. Bounded (oldest dropped first)
 * and cleared at login/logout, so one account's data never answers for another.
 */
export class EtagCache {
  readonly #entries = new Map<string, CachedReply>();
  readonly #max: number;

  public constructor(max = 64) {
    this.#max = max;
  }

  public get(key: string): CachedReply | undefined {
    return this.#entries.get(key);
  }

  public set(key: string, reply: CachedReply): void {
    this.#entries.delete(key);
    this.#entries.set(key, reply);
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  public clear(): void {
    this.#entries.clear();
  }
}
