import type { CandleInterval } from '@shared/domain/market';
import { istDate, istDayStart } from '@shared/lib/ist-time';
import {
  type Bar,
  DAY_MS,
  DEFAULT_SPAN_MS,
  type History,
  MINUTE_MS,
  bucketStart,
  buildCandles,
  generateHistory,
  minuteVol,
} from './candles';
import { bandOf, type PaperInstrument } from './instruments';
import { deriveRng, normal, type Rng } from './rng';

/**
 * The paper market: one last-traded price per instrument, moved by a seeded random walk on
 * the tick grid inside the day's band, plus the live minute bars the forming candles come from.
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
  volume: number;
  band: readonly [number, number];
  live: Bar[];
}

/** Live minute bars kept per instrument (older ones fall back to the generated history). */
const LIVE_BARS_MAX = 2 * 24 * 60;
/** Generated histories kept in memory (they are cheap to regenerate, 400 kB each). */
const HISTORY_CACHE = 48;

export class Market {
  private readonly bySymbolKey = new Map<string, PaperInstrument>();
  private readonly byToken = new Map<number, PaperInstrument>();
  private readonly quotes = new Map<number, Quote>();
  private readonly histories = new Map<number, History>();
  private readonly listeners: Array<(moves: readonly PriceMove[]) => void> = [];
  private readonly rng: Rng;
  /** Where the generated history ends and live prices begin (a minute boundary). */
  readonly anchorMs: number;

  constructor(
    readonly instruments: readonly PaperInstrument[],
    private readonly seed: number,
    now: number = Date.now(),
  ) {
    this.rng = deriveRng(seed, 'walk');
    this.anchorMs = bucketStart(now, MINUTE_MS);
    for (const i of instruments) {
      this.byToken.set(i.token, i);
      this.bySymbolKey.set(`${i.exchange}:${i.tradingsymbol}`, i);
      const day = istDate(now);
      const dayEnds = istDayStart(now) + DAY_MS;
      this.quotes.set(i.token, {
        ltp: i.baseUnits,
        day,
        close: i.baseUnits,
        dayEnds,
        volume: 0,
        band: bandOf(i),
        live: [],
      });
    }
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

  volume(token: number): number {
    return this.quotes.get(token)?.volume ?? 0;
  }

  /** The day's band `[low, high]` in price units. */
  band(token: number): readonly [number, number] {
    return this.quotes.get(token)?.band ?? [0, Number.MAX_SAFE_INTEGER];
  }

  /** Called with every batch of price changes (matching first, then the stream). */
  onMoves(listener: (moves: readonly PriceMove[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Sets a price (the control interface, journal replay). A price outside the band moves the
   * band with it, as a new session would, so tests may put any instrument anywhere.
   */
  set(token: number, ltpUnits: number, at: number = Date.now(), notify = true): PriceMove | null {
    const q = this.quotes.get(token);
    const i = this.byToken.get(token);
    if (!q || !i) return null;
    if (ltpUnits < q.band[0] || ltpUnits > q.band[1]) q.band = bandOf(i, ltpUnits);
    const move = this.apply(token, q, ltpUnits, Math.max(1, Math.round(this.rng() * 50)) * i.lotSize, at);
    if (notify) this.emit([move]);
    return move;
  }

  /** One market tick: a random subset of instruments moves a few ticks each. */
  step(at: number = Date.now(), share = 0.25): readonly PriceMove[] {
    const moves: PriceMove[] = [];
    for (const i of this.instruments) {
      if (this.rng() >= share) continue;
      const q = this.quotes.get(i.token);
      if (!q) continue;
      const sigmaTicks = (q.ltp * minuteVol(i) * 0.5) / i.tickUnits;
      let ticks = Math.round(normal(this.rng) * sigmaTicks);
      if (ticks === 0) ticks = this.rng() < 0.5 ? -1 : 1;
      let next = q.ltp + ticks * i.tickUnits;
      // Reflect off the band instead of sticking to it.
      if (next < q.band[0] || next > q.band[1]) next = q.ltp - ticks * i.tickUnits;
      next = Math.min(q.band[1], Math.max(q.band[0], next));
      moves.push(this.apply(i.token, q, next, Math.max(1, Math.round(this.rng() * 20)) * i.lotSize, at));
    }
    if (moves.length > 0) this.emit(moves);
    return moves;
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

  private apply(token: number, q: Quote, ltp: number, traded: number, at: number): PriceMove {
    if (at >= q.dayEnds) {
      q.close = q.ltp;
      q.day = istDate(at);
      q.dayEnds = istDayStart(at) + DAY_MS;
    }
    q.ltp = ltp;
    q.volume += traded;
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
    return { token, ltpUnits: ltp, volume: q.volume, at };
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
    const start = from ?? end - DEFAULT_SPAN_MS[interval];
    if (start > end) return [];
    return buildCandles(this.history(i), q.live, interval, start, end);
  }
}
