import type { Exchange } from '@shared/domain/instrument';
import type { CandleInterval } from '@shared/domain/market';
import { istDate, istDayStart } from '@shared/lib/ist-time';
import { PRICE_UNITS_PER_RUPEE } from '@shared/trading/money';
import { Book, type BookKind, FlatBook, type PriceBook } from './book';
import { isOpen } from './calendar';
import {
  type Bar,
  DAY_MS,
  defaultFrom,
  type History,
  MINUTE_MS,
  bucketStart,
  buildCandles,
  generateHistory,
  minuteVol,
} from './candles';
import {
  atmVolOf,
  bandOf,
  optionPremium,
  type PaperInstrument,
  type UnderlyingSpec,
  underlyingsOf,
} from './instruments';
import { futurePrice, yearsTo } from '@shared/trading/options-pricing';
import { deriveRng, fnv1a, normal, type Rng } from './rng';

/**
 * The paper market (docs/api.md §The paper market): underlyings moved by a seeded random walk
 * while their exchange is open, the instruments that follow them (a stock's BSE listing, futures
 * with a basis, options by Black–Scholes with a smile), one last price and one order book per
 * instrument, the day's bar and the live minute bars the forming candles come from.
 *
 * It knows nothing about orders: it tells listeners "token X now trades at P" and the
 * matching engine and the stream react.
 */

/** One price change, in price units. */
export interface PriceMove {
  readonly token: number;
  readonly ltpUnits: number;
  readonly volume: number;
  readonly at: number;
}

interface Quote {
  ltp: number;
  /** The IST date of the last price, and the last price of the day before it (the "close"). */
  day: string;
  close: number;
  /** When `day` ends (the next IST midnight): a price move checks this number, not a date string. */
  dayEnds: number;
  /** The day's traded quantity. */
  volume: number;
  band: readonly [number, number];
  /** The day's bar so far; null before the day's first trade. */
  open: number | null;
  high: number;
  low: number;
  lastTradeAt: number | null;
  /** A derivative's distance from its model price, in units (a control price sets it; it decays). */
  offset: number;
  oi: number;
  /** Open interest at the previous day's end (what the chain's OI change runs from). */
  oiClose: number;
  readonly book: PriceBook;
  live: Bar[];
}

/** An underlying and what follows it. */
interface Underlying {
  readonly spec: UnderlyingSpec;
  /** The price in rupees (a stock: its NSE listing's last price). */
  spot: number;
  readonly atmVol: number;
  /** A stock's NSE listing, whose last price is the stock's price. */
  readonly primary: PaperInstrument | null;
  readonly dependents: PaperInstrument[];
  /** Set by hand since the last tick: its dependents reprice at the next one. */
  dirty: boolean;
}

/** Live minute bars kept per instrument (older ones fall back to the generated history). */
const LIVE_BARS_MAX = 2 * 24 * 60;
/** Generated histories kept in memory (they are cheap to regenerate). */
const HISTORY_CACHE = 48;

/** Rounds a price in units to the tick grid, at least one tick. */
function onGrid(units: number, tick: number): number {
  return Math.max(tick, Math.round(units / tick) * tick);
}

export class Market {
  private readonly bySymbolKey = new Map<string, PaperInstrument>();
  private readonly byToken = new Map<number, PaperInstrument>();
  private readonly quotes = new Map<number, Quote>();
  private readonly underlyings = new Map<string, Underlying>();
  private readonly histories = new Map<number, History>();
  private readonly listeners: Array<(moves: readonly PriceMove[]) => void> = [];
  private readonly bookListeners: Array<(token: number) => void> = [];
  private readonly rng: Rng;
  private list: PaperInstrument[];
  /** Where the generated history ends and live prices begin (a minute boundary). */
  readonly anchorMs: number;

  constructor(
    instruments: readonly PaperInstrument[],
    private readonly seed: number,
    now: number = Date.now(),
    /** `flat`: the matcher before the book, for the benchmark's baseline. */
    private readonly bookKind: BookKind = 'depth',
  ) {
    this.rng = deriveRng(seed, 'walk');
    this.anchorMs = bucketStart(now, MINUTE_MS);
    this.list = [...instruments];
    for (const [key, spec] of underlyingsOf(instruments)) {
      const members = instruments.filter((i) => i.underlying === key);
      const primary =
        spec.kind === 'stock' ? (members.find((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ') ?? null) : null;
      this.underlyings.set(key, {
        spec,
        spot: primary ? primary.baseUnits / PRICE_UNITS_PER_RUPEE : (members[0]?.underlyingBase ?? 0),
        atmVol: atmVolOf(spec.kind),
        primary,
        dependents: members.filter((i) => i !== primary),
        dirty: false,
      });
    }
    for (const i of instruments) this.add(i, i.baseUnits, now);
  }

  private add(i: PaperInstrument, ltp: number, now: number): void {
    this.byToken.set(i.token, i);
    this.bySymbolKey.set(`${i.exchange}:${i.tradingsymbol}`, i);
    const band = bandOf(i, ltp);
    const book = this.bookKind === 'flat' ? new FlatBook(i) : new Book(i);
    book.reset(ltp, band);
    this.quotes.set(i.token, {
      ltp,
      day: istDate(now),
      close: ltp,
      dayEnds: istDayStart(now) + DAY_MS,
      volume: 0,
      band,
      open: null,
      high: ltp,
      low: ltp,
      lastTradeAt: null,
      offset: 0,
      oi: i.instrumentType === 'EQ' ? 0 : this.openingOi(i),
      oiClose: i.instrumentType === 'EQ' ? 0 : this.openingOi(i),
      book,
      live: [],
    });
  }

  /** A future's or option's opening open interest: seeded, largest near the money. */
  private openingOi(i: PaperInstrument): number {
    const lots = 200 + (fnv1a(`oi:${i.token}`) % 4000);
    if (i.strike === null) return lots * 10 * i.lotSize;
    const m = Math.abs(Math.log(i.strike / Math.max(1e-9, i.underlyingBase)));
    return Math.max(1, Math.round(lots * Math.exp(-12 * m))) * i.lotSize;
  }

  /** The live universe: expired contracts have left it. */
  get instruments(): readonly PaperInstrument[] {
    return this.list;
  }

  instrument(token: number): PaperInstrument | undefined {
    return this.byToken.get(token);
  }

  lookup(exchange: string, tradingsymbol: string): PaperInstrument | undefined {
    return this.bySymbolKey.get(`${exchange}:${tradingsymbol}`);
  }

  /** Last traded price in price units (0 for an unknown token). */
  ltp(token: number): number {
    return this.quotes.get(token)?.ltp ?? 0;
  }

  /**
   * The previous session's close as of IST date `day`, in price units: the last price of the
   * latest day before it (0 for an unknown token). Until the market's first move it is the
   * generated opening price, which the universe treats as yesterday's close.
   */
  closeOf(token: number, day: string): number {
    const q = this.quotes.get(token);
    if (!q) return 0;
    return q.day < day ? q.ltp : q.close;
  }

  /** The previous close a tick at `at` measures its change from (cheaper than `closeOf` for every tick). */
  changeBase(token: number, at: number): number {
    const q = this.quotes.get(token);
    if (!q) return 0;
    return at < q.dayEnds ? q.close : q.ltp;
  }

  /** The day's traded quantity. */
  volume(token: number): number {
    return this.quotes.get(token)?.volume ?? 0;
  }

  /** The day's band `[low, high]` in price units: the circuit limits. */
  band(token: number): readonly [number, number] {
    return this.quotes.get(token)?.band ?? [0, Number.MAX_SAFE_INTEGER];
  }

  /** The instrument's order book. */
  book(token: number): PriceBook | undefined {
    return this.quotes.get(token)?.book;
  }

  /** The day's bar so far (open, high, low; before the day's first trade all at the last price). */
  dayBar(token: number): { open: number; high: number; low: number; lastTradeAt: number | null } {
    const q = this.quotes.get(token);
    if (!q) return { open: 0, high: 0, low: 0, lastTradeAt: null };
    return q.open === null
      ? { open: q.ltp, high: q.ltp, low: q.ltp, lastTradeAt: q.lastTradeAt }
      : { open: q.open, high: q.high, low: q.low, lastTradeAt: q.lastTradeAt };
  }

  /** Open interest of a future or option; null for an equity. */
  oi(token: number): number | null {
    const i = this.byToken.get(token);
    if (!i || i.instrumentType === 'EQ') return null;
    return this.quotes.get(token)?.oi ?? 0;
  }

  /**
   * Open interest at the end of the latest day before IST date `day` (what the option chain's OI
   * change runs from); null for an equity. Until the first new day it is the opening figure.
   */
  oiCloseOf(token: number, day: string): number | null {
    const i = this.byToken.get(token);
    const q = this.quotes.get(token);
    if (!i || !q || i.instrumentType === 'EQ') return null;
    return q.day < day ? q.oi : q.oiClose;
  }

  /** An underlying's price now, in rupees (the option chain's `underlying_price`); null if unknown. */
  spot(key: string): number | null {
    return this.underlyings.get(key)?.spot ?? null;
  }

  /** The at-the-money volatility of an underlying's options. */
  atmVol(key: string): number {
    return this.underlyings.get(key)?.atmVol ?? 0.2;
  }

  /** Called with every batch of price changes (matching first, then the stream). */
  onMoves(listener: (moves: readonly PriceMove[]) => void): void {
    this.listeners.push(listener);
  }

  /** Called when an instrument's book changes without a price move (the account took from it). */
  onBookChange(listener: (token: number) => void): void {
    this.bookListeners.push(listener);
  }

  /** The matching engine took from `token`'s book: its depth changed, its price did not. */
  bookChanged(token: number): void {
    for (const l of this.bookListeners) l(token);
  }

  /**
   * Sets a price (the control interface, journal replay). A price outside the band moves the
   * band with it, as a new session would, so tests may put any instrument anywhere. A derivative
   * keeps its distance from the model; a stock's price is its underlying's, which its derivatives
   * follow at the next tick.
   */
  set(token: number, ltpUnits: number, at: number = Date.now(), notify = true): PriceMove | null {
    const q = this.quotes.get(token);
    const i = this.byToken.get(token);
    if (!q || !i) return null;
    if (ltpUnits < q.band[0] || ltpUnits > q.band[1]) q.band = bandOf(i, ltpUnits);
    const u = this.underlyings.get(i.underlying);
    if (u && u.primary === i) {
      u.spot = ltpUnits / PRICE_UNITS_PER_RUPEE;
      u.dirty = true;
    } else if (u) q.offset = ltpUnits - this.model(i, u, at);
    const move = this.apply(i, q, ltpUnits, Math.max(1, Math.round(this.rng() * 50)) * i.lotSize, at);
    if (notify) this.emit([move]);
    return move;
  }

  /**
   * Sets an underlying's price (the control interface) and reprices everything on it at once;
   * returns the moves (already sent to the listeners), or null for an unknown underlying.
   */
  setUnderlying(key: string, rupees: number, at: number): readonly PriceMove[] | null {
    const u = this.underlyings.get(key);
    if (!u) return null;
    const moves: PriceMove[] = [];
    if (u.primary) {
      const q = this.quotes.get(u.primary.token);
      const ltp = onGrid(rupees * PRICE_UNITS_PER_RUPEE, u.primary.tickUnits);
      if (q) {
        if (ltp < q.band[0] || ltp > q.band[1]) q.band = bandOf(u.primary, ltp);
        moves.push(this.apply(u.primary, q, ltp, u.primary.lotSize, at));
      }
      u.spot = ltp / PRICE_UNITS_PER_RUPEE;
    } else u.spot = rupees;
    u.dirty = false;
    this.repriceDependents(u, at, moves, false);
    if (moves.length > 0) this.emit(moves);
    return moves;
  }

  /** A derivative's (or BSE listing's) model price now, in units before rounding. */
  private model(i: PaperInstrument, u: Underlying, at: number): number {
    const spot = u.spot;
    if (i.instrumentType === 'EQ') return spot * PRICE_UNITS_PER_RUPEE;
    const expiresAt = i.expiresAt ?? at;
    if (i.instrumentType === 'FUT') return futurePrice(spot, yearsTo(expiresAt, at)) * PRICE_UNITS_PER_RUPEE;
    return (
      optionPremium(i.instrumentType, spot, i.strike ?? spot, expiresAt, at, u.atmVol, i.underlyingBase) *
      PRICE_UNITS_PER_RUPEE
    );
  }

  /** Moves every dependent of `u` to its model price plus its (decaying) offset; pushes the moves. */
  private repriceDependents(u: Underlying, at: number, moves: PriceMove[], noisy: boolean): void {
    for (const i of u.dependents) {
      const q = this.quotes.get(i.token);
      if (!q || !isOpenOrSet(i.exchange, at, noisy)) continue;
      if (noisy) {
        // The basis and quote noise decay back to the model, a tick at a time.
        q.offset = Math.trunc((q.offset * 0.8) / i.tickUnits) * i.tickUnits;
        if (i.instrumentType !== 'CE' && i.instrumentType !== 'PE' && this.rng() < 0.3)
          q.offset += (this.rng() < 0.5 ? -1 : 1) * i.tickUnits;
      }
      let next = onGrid(this.model(i, u, at) + q.offset, i.tickUnits);
      next = Math.min(q.band[1], Math.max(q.band[0], next));
      if (next === q.ltp) continue;
      moves.push(this.apply(i, q, next, Math.max(1, Math.round(this.rng() * 20)) * i.lotSize, at));
    }
  }

  /** One market tick: a random share of the underlyings of open exchanges move, and what follows them. */
  step(at: number = Date.now(), share = 0.25): readonly PriceMove[] {
    const moves: PriceMove[] = [];
    const open = new Map<Exchange, boolean>();
    const isOpenNow = (e: Exchange): boolean => {
      let o = open.get(e);
      if (o === undefined) open.set(e, (o = isOpen(e, at)));
      return o;
    };
    for (const u of this.underlyings.values()) {
      if (!isOpenNow(u.spec.exchange)) continue;
      const moving = this.rng() < share;
      if (!moving && !u.dirty) continue;
      u.dirty = false;
      if (moving) this.walk(u, at, moves);
      this.repriceDependents(u, at, moves, moving);
    }
    if (moves.length > 0) this.emit(moves);
    return moves;
  }

  /** Moves an underlying a few ticks (a stock: its NSE listing, reflected off the band). */
  private walk(u: Underlying, at: number, moves: PriceMove[]): void {
    const p = u.primary;
    if (p) {
      const q = this.quotes.get(p.token);
      if (!q) return;
      const sigmaTicks = (q.ltp * minuteVol(p) * 0.5) / p.tickUnits;
      let ticks = Math.round(normal(this.rng) * sigmaTicks);
      if (ticks === 0) ticks = this.rng() < 0.5 ? -1 : 1;
      let next = q.ltp + ticks * p.tickUnits;
      // Reflect off the band instead of sticking to it.
      if (next < q.band[0] || next > q.band[1]) next = q.ltp - ticks * p.tickUnits;
      next = Math.min(q.band[1], Math.max(q.band[0], next));
      moves.push(this.apply(p, q, next, Math.max(1, Math.round(this.rng() * 20)) * p.lotSize, at));
      u.spot = next / PRICE_UNITS_PER_RUPEE;
      return;
    }
    u.spot *= Math.exp(normal(this.rng) * 0.0004 * 0.5);
  }

  /**
   * Puts back a last price the journal saved at `savedAt` (undefined in old journals). Saved on
   * an earlier day than `now`, it is also the close today's P&L runs from.
   */
  restoreMark(token: number, ltpUnits: number, savedAt: number | undefined, now: number): void {
    this.set(token, ltpUnits, now, false);
    const q = this.quotes.get(token);
    if (q && savedAt !== undefined && istDate(savedAt) < q.day) q.close = ltpUnits;
  }

  /**
   * A new IST day (docs/api.md §Margins, positions, holdings, funds, "The day"): every last price
   * becomes the previous close, each band is recomputed around it, and the day's bar and volume
   * start again.
   */
  rollDay(at: number): void {
    const day = istDate(at);
    for (const [token, q] of this.quotes) {
      if (q.day >= day) continue;
      const i = this.byToken.get(token);
      q.close = q.ltp;
      q.oiClose = q.oi;
      q.day = day;
      q.dayEnds = istDayStart(at) + DAY_MS;
      q.volume = 0;
      q.open = null;
      q.high = q.ltp;
      q.low = q.ltp;
      if (i) q.band = bandOf(i, q.ltp);
      q.book.reset(q.ltp, q.band);
    }
  }

  /** Takes an expired contract out of the universe (its quote stays readable for marks). */
  expire(token: number): void {
    const i = this.byToken.get(token);
    if (!i) return;
    this.list = this.list.filter((x) => x.token !== token);
    this.bySymbolKey.delete(`${i.exchange}:${i.tradingsymbol}`);
    this.byToken.delete(token);
    const u = this.underlyings.get(i.underlying);
    if (u) {
      const k = u.dependents.indexOf(i);
      if (k >= 0) u.dependents.splice(k, 1);
    }
  }

  /** Lists a new contract (the next series after an expiry) at its model price now. */
  listContract(i: PaperInstrument, at: number): void {
    if (this.byToken.has(i.token)) return;
    const u = this.underlyings.get(i.underlying);
    const ltp = u ? onGrid(this.model(i, u, at), i.tickUnits) : i.baseUnits;
    this.list.push(i);
    u?.dependents.push(i);
    this.add(i, ltp, at);
  }

  private apply(i: PaperInstrument, q: Quote, ltp: number, traded: number, at: number): PriceMove {
    if (at >= q.dayEnds) {
      q.close = q.ltp;
      q.oiClose = q.oi;
      q.day = istDate(at);
      q.dayEnds = istDayStart(at) + DAY_MS;
      q.volume = 0;
      q.open = null;
    }
    q.ltp = ltp;
    q.volume += traded;
    if (q.open === null) {
      q.open = ltp;
      q.high = ltp;
      q.low = ltp;
    } else {
      q.high = Math.max(q.high, ltp);
      q.low = Math.min(q.low, ltp);
    }
    q.lastTradeAt = at;
    if (i.instrumentType !== 'EQ') q.oi = Math.max(i.lotSize, q.oi + Math.round((this.rng() - 0.45) * traded));
    q.book.reset(ltp, q.band);
    // Candles exist only inside sessions: a price set while the exchange is closed draws no bar.
    if (isOpen(i.exchange, at)) this.bar(q, ltp, traded, at);
    return { token: i.token, ltpUnits: ltp, volume: q.volume, at };
  }

  private bar(q: Quote, ltp: number, traded: number, at: number): void {
    const start = Math.max(bucketStart(at, MINUTE_MS), this.anchorMs);
    const bar = q.live[q.live.length - 1];
    if (bar && bar[0] === start) {
      bar[2] = Math.max(bar[2], ltp);
      bar[3] = Math.min(bar[3], ltp);
      bar[4] = ltp;
      bar[5] += traded;
    } else {
      const open = bar ? bar[4] : ltp;
      q.live.push([start, open, Math.max(open, ltp), Math.min(open, ltp), ltp, traded]);
      if (q.live.length > LIVE_BARS_MAX) q.live.shift();
    }
  }

  private emit(moves: readonly PriceMove[]): void {
    for (const l of this.listeners) l(moves);
  }

  private history(i: PaperInstrument): History {
    let h = this.histories.get(i.token);
    if (h) {
      this.histories.delete(i.token);
      this.histories.set(i.token, h);
      return h;
    }
    h = generateHistory(this.seed, i, this.anchorMs, i.baseUnits);
    this.histories.set(i.token, h);
    if (this.histories.size > HISTORY_CACHE) {
      const oldest = this.histories.keys().next().value;
      if (oldest !== undefined) this.histories.delete(oldest);
    }
    return h;
  }

  /** Candles in price units; `from`/`to` default to a span that fills a chart of the interval. */
  candles(token: number, interval: CandleInterval, from?: number, to?: number, now: number = Date.now()): Bar[] {
    const i = this.byToken.get(token);
    const q = this.quotes.get(token);
    if (!i || !q) return [];
    const end = to ?? now;
    const start = from ?? defaultFrom(interval, end);
    if (start > end) return [];
    return buildCandles(this.history(i), q.live, interval, start, end);
  }
}

/** A dependent reprices while its exchange is open, or at once when set by hand (`noisy` false). */
function isOpenOrSet(exchange: Exchange, at: number, noisy: boolean): boolean {
  return !noisy || isOpen(exchange, at);
}
