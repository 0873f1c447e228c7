import { PRICE_UNITS_PER_RUPEE } from '@shared/trading/money';
import type { PaperInstrument } from './instruments';
import { fnv1a } from './rng';

/**
 * The simulated limit order book behind every paper price (docs/api.md §The order book).
 *
 * At each price event the book is rebuilt around the new last price L: ten levels a side, the
 * best a half-spread away, quantities from a documented formula (a hash of the instrument, L,
 * the side and the level), so they move with the price, are reproducible, and a reference model
 * can compute them too. What the account's orders take stays taken until the next price event.
 * Prices are integer units of ₹0.0001.
 */

/** Levels a side the book holds (quotes and `full` ticks show the best `VISIBLE_LEVELS`). */
export const BOOK_LEVELS = 10;
/** Levels a side quotes show. */
export const VISIBLE_LEVELS = 5;

/** One side of the book: `buy` holds the bids, `sell` the asks. */
export type BookSide = 'buy' | 'sell';

/** A level as shown: price, remaining quantity, orders resting there. */
export interface BookLevel {
  readonly price: number;
  readonly quantity: number;
  readonly orders: number;
}

/** A piece of an order's fill against one level. */
export interface BookFill {
  readonly price: number;
  readonly quantity: number;
}

/** Equities: top-of-book value in rupees (thin ones a sixth of it). */
const EQUITY_TOP_VALUE = 3_00_000;
const THIN_EQUITY_TOP_VALUE = 50_000;

/** The half-spread in ticks: 1, or 2 for a thin contract. */
export function halfSpreadTicks(i: PaperInstrument): number {
  return i.thin ? 2 : 1;
}

/** B, the base size of the best level in lots (equities: shares) at last price `ltpUnits`. */
export function baseLots(i: PaperInstrument, ltpUnits: number): number {
  if (i.instrumentType === 'EQ') {
    const value = (i.thin ? THIN_EQUITY_TOP_VALUE : EQUITY_TOP_VALUE) * PRICE_UNITS_PER_RUPEE;
    return Math.max(1, Math.floor(value / Math.max(1, ltpUnits)));
  }
  const lots = i.freezeQuantity / i.lotSize;
  if (i.instrumentType === 'FUT') return Math.max(1, Math.floor(lots / 8));
  return Math.max(1, Math.floor(lots / (i.thin ? 16 : 4)));
}

/** The fresh quantity at level `k` (1-based) of `side` around `ltpUnits`. */
export function levelQuantity(i: PaperInstrument, ltpUnits: number, side: BookSide, k: number): number {
  const j = 0.5 + fnv1a(`${i.token}:${ltpUnits}:${side}:${k}`) / 4294967296;
  return i.lotSize * Math.max(1, Math.round(baseLots(i, ltpUnits) * (1 + (k - 1) / 4) * j));
}

/** The fresh order count at a level: between 1 and its lots (display only). */
function levelOrders(i: PaperInstrument, ltpUnits: number, side: BookSide, k: number, quantity: number): number {
  const lots = Math.max(1, Math.min(40, Math.floor(quantity / i.lotSize)));
  return 1 + (fnv1a(`orders:${i.token}:${ltpUnits}:${side}:${k}`) % lots);
}

/** What matching, quotes and ticks need of a book. */
export interface PriceBook {
  reset(ltpUnits: number, band: readonly [number, number]): void;
  levels(side: BookSide, max?: number): BookLevel[];
  best(side: BookSide): number | null;
  total(side: BookSide): number;
  take(side: BookSide, quantity: number, limit: number | null): BookFill[];
}

/** Which book a market keeps: `depth` (docs/api.md §The order book) or `flat` (the matcher before it). */
export type BookKind = 'depth' | 'flat';

/** One instrument's book: the levels around the last price and what the account has taken. */
export class Book implements PriceBook {
  #ltp = 0;
  #band: readonly [number, number] = [0, 0];
  /** Per side, the levels' prices, fresh quantities and fresh orders, best first. */
  #prices: Record<BookSide, number[]> = { buy: [], sell: [] };
  #fresh: Record<BookSide, number[]> = { buy: [], sell: [] };
  #orders: Record<BookSide, number[]> = { buy: [], sell: [] };
  #taken: Record<BookSide, number[]> = { buy: [], sell: [] };
  #built = false;

  constructor(private readonly instrument: PaperInstrument) {}

  /** A price event: the book is rebuilt (lazily) around `ltpUnits`, inside `band`; nothing is taken. */
  reset(ltpUnits: number, band: readonly [number, number]): void {
    this.#ltp = ltpUnits;
    this.#band = band;
    this.#built = false;
  }

  #build(): void {
    if (this.#built) return;
    this.#built = true;
    const i = this.instrument;
    const h = halfSpreadTicks(i);
    for (const side of ['buy', 'sell'] as const) {
      const prices: number[] = [];
      const fresh: number[] = [];
      const orders: number[] = [];
      for (let k = 1; k <= BOOK_LEVELS; k++) {
        const offset = (h + k - 1) * i.tickUnits;
        const price = side === 'buy' ? this.#ltp - offset : this.#ltp + offset;
        // Nothing rests at or below zero, nor outside the day's band (circuit limits).
        if (price < i.tickUnits || price < this.#band[0] || price > this.#band[1]) continue;
        const q = levelQuantity(i, this.#ltp, side, k);
        prices.push(price);
        fresh.push(q);
        orders.push(levelOrders(i, this.#ltp, side, k, q));
      }
      this.#prices[side] = prices;
      this.#fresh[side] = fresh;
      this.#orders[side] = orders;
      this.#taken[side] = prices.map(() => 0);
    }
  }

  /** The remaining levels of `side`, best first (at most `max`); an emptied level is left out. */
  levels(side: BookSide, max = BOOK_LEVELS): BookLevel[] {
    this.#build();
    const out: BookLevel[] = [];
    const prices = this.#prices[side];
    for (let n = 0; n < prices.length && out.length < max; n++) {
      const fresh = this.#fresh[side][n] ?? 0;
      const left = fresh - (this.#taken[side][n] ?? 0);
      if (left <= 0) continue;
      const orders = this.#orders[side][n] ?? 1;
      out.push({ price: prices[n] ?? 0, quantity: left, orders: Math.max(1, Math.ceil((orders * left) / fresh)) });
    }
    return out;
  }

  /** The best remaining price of `side`, or null when it is empty. */
  best(side: BookSide): number | null {
    if (!this.#built) {
      // Nothing taken since the price event: the first level inside the band, without building.
      const i = this.instrument;
      for (let k = 1; k <= BOOK_LEVELS; k++) {
        const offset = (halfSpreadTicks(i) + k - 1) * i.tickUnits;
        const price = side === 'buy' ? this.#ltp - offset : this.#ltp + offset;
        if (price >= i.tickUnits && price >= this.#band[0] && price <= this.#band[1]) return price;
      }
      return null;
    }
    return this.levels(side, 1)[0]?.price ?? null;
  }

  /** Everything remaining on `side`. */
  total(side: BookSide): number {
    return this.levels(side).reduce((s, l) => s + l.quantity, 0);
  }

  /**
   * Takes up to `quantity` from `side`, best level first, as far as `limit` allows (a buy takes
   * asks at or below it, a sell bids at or above it; null = any price), in whole lots. Returns
   * the fills, one per level touched; what is taken stays taken until the next `reset`.
   */
  take(side: BookSide, quantity: number, limit: number | null): BookFill[] {
    this.#build();
    const lot = this.instrument.lotSize;
    const fills: BookFill[] = [];
    let want = quantity;
    const prices = this.#prices[side];
    for (let n = 0; n < prices.length && want > 0; n++) {
      const price = prices[n] ?? 0;
      if (limit !== null && (side === 'sell' ? price > limit : price < limit)) break;
      const left = (this.#fresh[side][n] ?? 0) - (this.#taken[side][n] ?? 0);
      const q = Math.min(want, Math.floor(left / lot) * lot);
      if (q <= 0) continue;
      this.#taken[side][n] = (this.#taken[side][n] ?? 0) + q;
      want -= q;
      fills.push({ price, quantity: q });
    }
    return fills;
  }
}

/**
 * The matcher the paper market had before the book, kept as a baseline for the benchmark
 * (`npm run bench -- paper`): one level at the last price on both sides, holding the old touch
 * quantity (equities ⌊₹25,00,000 ÷ L⌋ shares, derivatives 10 lots), which every order gets in
 * full at each price event (nothing is ever taken from it).
 */
export class FlatBook implements PriceBook {
  #ltp = 0;

  constructor(private readonly instrument: PaperInstrument) {}

  reset(ltpUnits: number): void {
    this.#ltp = ltpUnits;
  }

  #touch(): number {
    const i = this.instrument;
    const q =
      i.instrumentType === 'EQ'
        ? Math.max(1, Math.floor((25_00_000 * PRICE_UNITS_PER_RUPEE) / Math.max(this.#ltp, 1)))
        : i.lotSize * 10;
    return Math.max(i.lotSize, Math.floor(q / i.lotSize) * i.lotSize);
  }

  levels(): BookLevel[] {
    return [{ price: this.#ltp, quantity: this.#touch(), orders: 1 }];
  }

  best(): number | null {
    return this.#ltp;
  }

  total(): number {
    return this.#touch();
  }

  take(side: BookSide, quantity: number, limit: number | null): BookFill[] {
    if (limit !== null && (side === 'sell' ? this.#ltp > limit : this.#ltp < limit)) return [];
    return [{ price: this.#ltp, quantity: Math.min(quantity, this.#touch()) }];
  }
}
