import type { StreamMode } from '@shared/domain/market';

/** How much the stream carries, poorest first: a token several owners watch gets the richest asked. */
const RANK: Readonly<Record<StreamMode, number>> = { ltp: 0, quote: 1, full: 2 };

/** The union of what every owner watches: the tokens, and the modes richer than the default `quote`. */
export interface SubscriptionUnion {
  readonly tokens: ReadonlySet<number>;
  /** Tokens whose richest wanted mode is not `quote` (`full` for a depth ladder, `ltp` if only that was asked). */
  readonly modes: ReadonlyMap<number, StreamMode>;
}

/**
 * Which instruments each part of the UI watches, in which stream mode, and their union.
 *
 * The watchlist, the ticket, the chart, the positions panel and the depth ladder each replace
 * their own set (`market.subscribe {owner, tokens, mode}`); the stream is subscribed to the
 * union, so one panel closing never unsubscribes an instrument another still shows, and a token
 * streams in the richest mode any owner asked for it (docs/api.md §Stream, modes).
 */
export class SubscriptionRegistry {
  readonly #byOwner = new Map<string, { readonly tokens: ReadonlySet<number>; readonly mode: StreamMode }>();
  readonly #maxOwners: number;

  public constructor(maxOwners = 64) {
    this.#maxOwners = maxOwners;
  }

  /** Replaces one owner's set (empty removes the owner) and returns the new union's tokens. */
  public set(owner: string, tokens: readonly number[], mode: StreamMode = 'quote'): ReadonlySet<number> {
    if (tokens.length === 0) this.#byOwner.delete(owner);
    else if (this.#byOwner.has(owner) || this.#byOwner.size < this.#maxOwners)
      this.#byOwner.set(owner, { tokens: new Set(tokens), mode });
    return this.union();
  }

  /** Removes every owner whose name starts with `prefix` (a closed window's panels); returns whether any was. */
  public dropOwners(prefix: string): boolean {
    let dropped = false;
    for (const owner of [...this.#byOwner.keys()]) {
      if (owner.startsWith(prefix)) dropped = this.#byOwner.delete(owner) || dropped;
    }
    return dropped;
  }

  public union(): ReadonlySet<number> {
    return this.subscriptions().tokens;
  }

  /** Every watched token, with the richest mode any owner asked for it where that is not `quote`. */
  public subscriptions(): SubscriptionUnion {
    const best = new Map<number, StreamMode>();
    for (const { tokens, mode } of this.#byOwner.values()) {
      for (const t of tokens) {
        const had = best.get(t);
        if (had === undefined || RANK[mode] > RANK[had]) best.set(t, mode);
      }
    }
    const modes = new Map<number, StreamMode>();
    for (const [t, m] of best) if (m !== 'quote') modes.set(t, m);
    return { tokens: new Set(best.keys()), modes };
  }
}
