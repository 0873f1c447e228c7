import type { Tick } from '@shared/domain/market';
import { fromUnits, toUnits } from '@shared/trading/money';

/** The volume traded at each price since main began watching an instrument (docs/ladder.md §Volume at price). */
export interface VolumeAtPrice {
  /** Epoch ms of the first tick counted; null before any. */
  readonly since: number | null;
  readonly levels: ReadonlyArray<{ readonly price: number; readonly volume: number }>;
}

/** Prices kept per instrument, and instruments kept (the least recently ticked go first). */
const MAX_PRICES = 4_000;
const MAX_INSTRUMENTS = 300;

interface Profile {
  since: number;
  lastVolume: number;
  readonly levels: Map<number, number>;
}

/**
 * Volume at price, accumulated in main from every tick the stream delivers (docs/ladder.md
 * §Volume at price): each tick carries the day's cumulative volume and the last price, so the
 * volume traded since the previous tick is put at this tick's price. Main sees every tick (the
 * page sees a batch's latest), so the split by price is as fine as the stream's. A day's volume
 * that falls (a new session) starts the profile again. Bounded in prices and instruments.
 */
export class VolumeProfile {
  readonly #profiles = new Map<number, Profile>();
  readonly #now: () => number;

  public constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  public onTick(t: Tick): void {
    const held = this.#profiles.get(t.instrumentToken);
    if (!held || t.volume < held.lastVolume) {
      if (!held && this.#profiles.size >= MAX_INSTRUMENTS) {
        const oldest = this.#profiles.keys().next().value;
        if (oldest !== undefined) this.#profiles.delete(oldest);
      }
      this.#profiles.delete(t.instrumentToken);
      this.#profiles.set(t.instrumentToken, { since: this.#now(), lastVolume: t.volume, levels: new Map() });
      return;
    }
    // Most recently ticked last: the map's order is the eviction order.
    this.#profiles.delete(t.instrumentToken);
    this.#profiles.set(t.instrumentToken, held);
    const traded = t.volume - held.lastVolume;
    held.lastVolume = t.volume;
    if (traded <= 0 || !(t.lastPrice > 0)) return;
    const at = toUnits(t.lastPrice);
    if (!held.levels.has(at) && held.levels.size >= MAX_PRICES) return;
    held.levels.set(at, (held.levels.get(at) ?? 0) + traded);
  }

  /** One instrument's volume by price, highest price first. */
  public of(instrumentToken: number): VolumeAtPrice {
    const p = this.#profiles.get(instrumentToken);
    if (!p) return { since: null, levels: [] };
    const levels = [...p.levels].sort((a, b) => b[0] - a[0]).map(([u, volume]) => ({ price: fromUnits(u), volume }));
    return { since: p.since, levels };
  }
}
