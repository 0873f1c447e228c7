import type { AlertBasis, StudyInterval } from '@shared/domain/alert';
import type { Candle, Tick } from '@shared/domain/market';
import { istDate } from '@shared/lib/ist-time';
import { studyLevel } from '@shared/studies/study-level';

/** A bar's length per interval (ms). */
const BAR_MS: Readonly<Record<StudyInterval, number>> = {
  minute: 60_000,
  '5minute': 300_000,
  '15minute': 900_000,
  '60minute': 3_600_000,
};

/** How long after a failed read of bars it is tried again (market ms). */
const RETRY_MS = 5_000;

/** What the feed reads bars with (the broker's candles). */
export interface StudyFeedDeps {
  candles(instrumentToken: number, interval: StudyInterval): Promise<readonly Candle[]>;
}

interface Bars {
  readonly bars: readonly Candle[];
  /** Market ms from which a newer closed bar exists: read again then. */
  readonly staleFrom: number;
}

/**
 * The levels of study alerts (docs/contract.md §Alerts that place orders): per instrument and bar
 * size, the session's bars read from the broker, read again once a bar has closed since, and the
 * study's level at each tick (`shared/studies/study-level.ts`). Until the bars are read the level
 * is unknown, and an unknown level never fires.
 */
export class StudyFeed {
  readonly #deps: StudyFeedDeps;
  readonly #bars = new Map<string, Bars>();
  readonly #reading = new Set<string>();

  public constructor(deps: StudyFeedDeps) {
    this.#deps = deps;
  }

  /** The level the tick's price is compared with, or null while unknown. */
  public level(basis: AlertBasis, tick: Tick): number | null {
    if (basis.kind !== 'vwap' && basis.kind !== 'ema') return null;
    const key = `${tick.instrumentToken}:${basis.interval}`;
    const now = Date.parse(tick.ts);
    if (!Number.isFinite(now)) return null;
    const held = this.#bars.get(key);
    if (!held || now >= held.staleFrom) this.#read(key, tick.instrumentToken, basis.interval, now);
    if (!held) return null;
    const day = istDate(now);
    const barMs = BAR_MS[basis.interval];
    // The session's closed bars: the forming one is the live price's (study-level.ts).
    const closed = held.bars.filter((b) => {
      const start = Date.parse(b.ts);
      return istDate(start) === day && start + barMs <= now;
    });
    return studyLevel(basis, closed, tick.lastPrice);
  }

  /** Forgets every instrument's bars (a new login). */
  public clear(): void {
    this.#bars.clear();
  }

  #read(key: string, token: number, interval: StudyInterval, now: number): void {
    if (this.#reading.has(key)) return;
    this.#reading.add(key);
    const barMs = BAR_MS[interval];
    this.#deps
      .candles(token, interval)
      .then((bars) => {
        // Read again at the close of the bar forming now.
        this.#bars.set(key, { bars, staleFrom: (Math.floor(now / barMs) + 1) * barMs });
      })
      // An unreadable read leaves the bars as they were (none: the level unknown), tried again a little later.
      .catch(() => {
        this.#bars.set(key, { bars: this.#bars.get(key)?.bars ?? [], staleFrom: now + RETRY_MS });
      })
      .finally(() => this.#reading.delete(key));
  }
}
