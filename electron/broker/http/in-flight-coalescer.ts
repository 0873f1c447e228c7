/**
 * Shares one in-flight promise between identical concurrent reads.
 *
 * Three panels asking for `/positions` in the same tick cost one request, not three, which
 * keeps polling far from the rate limit. Only reads may be coalesced: two identical writes are
 * two intents. The entry is dropped when the request settles, so a later call fetches afresh.
 */
export class InFlightCoalescer {
  readonly #inFlight = new Map<string, Promise<unknown>>();

  /** Runs `fetch` unless a call with the same key is already running, whose promise is shared. */
  public run<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const existing = this.#inFlight.get(key);
    if (existing) return existing as Promise<T>;
    const started = fetch().finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, started);
    return started;
  }

  /** How many distinct reads are running (for tests and diagnostics). */
  public get size(): number {
    return this.#inFlight.size;
  }
}
