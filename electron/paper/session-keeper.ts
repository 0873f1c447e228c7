import type { Exchange } from '@shared/domain/instrument';
import { istDate } from '@shared/lib/ist-time';
import { EXCHANGES, HOURS, addDays, atMinute, isTradingDay } from './calendar';
import type { PaperInstrument } from './instruments';
import type { Market } from './market';
import type { Engine } from './matching';

/**
 * Turns the market clock's passing into what the calendar says happens (docs/api.md §Sessions
 * and the calendar, §The close, §After-market orders): each exchange's close (DAY orders
 * cancelled, MIS squared off, expiries settled), each IST midnight (a new day: closes, bands,
 * T+1 delivery, the next series listed) and each open (AMO orders released, pre-open orders
 * matched) — in the order they happened, however far the clock jumped.
 *
 * `advance(now)` is called before every request, every market tick and every control change, so
 * nothing depends on a timer firing at the right moment.
 */

/** A boundary the clock crossed. */
interface Boundary {
  readonly at: number;
  /** Closes first, then the new day, then opens, at one instant. */
  readonly rank: number;
  readonly run: () => void;
}

/** The furthest back a jump is replayed (a journal months old catches up on the last year only). */
const MAX_DAYS = 400;

export class SessionKeeper {
  #last: number;

  /**
   * `universe(at)`: the contracts listed on a day (the broker's generated universe); the keeper
   * lists those the market does not have yet. Without it no new series appear (tests on a fixed
   * set of instruments).
   */
  constructor(
    private readonly market: Market,
    private readonly engine: Engine,
    start: number,
    private readonly universe?: (at: number) => readonly PaperInstrument[],
  ) {
    this.#last = start;
  }

  /** The market time up to which every boundary has been processed. */
  get last(): number {
    return this.#last;
  }

  /** Runs every close, new day and open in (last, now], oldest first. */
  advance(now: number): void {
    if (now <= this.#last) return;
    const from = Math.max(this.#last, now - MAX_DAYS * 24 * 3_600_000);
    const boundaries: Boundary[] = [];
    for (let date = istDate(from); date <= istDate(now); date = addDays(date, 1)) {
      const midnight = atMinute(date, 0);
      if (midnight > from && midnight <= now)
        boundaries.push({ at: midnight, rank: 1, run: () => this.newDay(midnight) });
      if (!isTradingDay(date)) continue;
      for (const exchange of EXCHANGES) {
        const h = HOURS[exchange];
        const open = atMinute(date, h.open);
        const close = atMinute(date, h.close);
        if (close > from && close <= now)
          boundaries.push({ at: close, rank: 0, run: () => this.engine.closeSession(exchange, date, close) });
        if (open > from && open <= now) boundaries.push({ at: open, rank: 2, run: () => this.open(exchange, open) });
      }
    }
    this.#last = now;
    boundaries.sort((a, b) => a.at - b.at || a.rank - b.rank);
    for (const b of boundaries) b.run();
  }

  private open(exchange: Exchange, at: number): void {
    this.engine.openSession(exchange, at);
  }

  /** A new IST day: prices roll, positions roll (T+1 delivery), the next series are listed. */
  private newDay(at: number): void {
    this.market.rollDay(at);
    this.engine.account.rollTo(at);
    for (const i of this.universe?.(at) ?? []) this.market.listContract(i, at);
  }
}
