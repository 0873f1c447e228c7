/**
 * Which instruments each part of the UI watches, and their union.
 *
 * The watchlist, the ticket, the chart and the positions panel each replace their own set
 * (`market.subscribe {owner, tokens}`); the stream is subscribed to the union, so one panel
 * closing never unsubscribes an instrument another still shows.
 */
export class SubscriptionRegistry {
  readonly #byOwner = new Map<string, ReadonlySet<number>>();
  readonly #maxOwners: number;

  public constructor(maxOwners = 64) {
    this.#maxOwners = maxOwners;
  }

  /** Replaces one owner's set (empty removes the owner) and returns the new union. */
  public set(owner: string, tokens: readonly number[]): ReadonlySet<number> {
    if (tokens.length === 0) this.#byOwner.delete(owner);
    else if (this.#byOwner.has(owner) || this.#byOwner.size < this.#maxOwners)
      this.#byOwner.set(owner, new Set(tokens));
    return this.union();
  }

  public union(): ReadonlySet<number> {
    const all = new Set<number>();
    for (const set of this.#byOwner.values()) for (const t of set) all.add(t);
    return all;
  }
}
