import type { Exchange } from '../domain/instrument';
import type { SessionPhase } from '../domain/market';
import { minuteOfDay, type ClockTime, type SquareOffSettings } from '../domain/square-off';
import { istDate } from '../lib/ist-time';
import { CLOSE_MINUTE } from './market-hours';

/**
 * When the square-off runs (docs/contract.md §Risk guard), as pure functions of the market's
 * clock and the broker's calendar, so main's scheduler and its table tests agree.
 */

/** The warning comes this long before the time. */
export const WARN_BEFORE_MS = 2 * 60_000;

/**
 * Off until the trader turns it on; the times are 20 minutes before each exchange's regular
 * close (15:10 on the equity and F&O segments, 16:40 on CDS, 23:10 on MCX).
 */
export const DEFAULT_SQUARE_OFF: SquareOffSettings = {
  enabled: false,
  times: { NSE: '15:10', BSE: '15:10', NFO: '15:10', BFO: '15:10', CDS: '16:40', MCX: '23:10' },
};

/** One exchange's session as the broker's market status tells it (epoch ms). */
export interface SessionTimes {
  readonly phase: SessionPhase;
  /** When normal trading next starts (after the current session while it is open). */
  readonly nextOpen: number;
  /** When the current session closes, or the next one while closed. */
  readonly nextClose: number;
}

/** One exchange's next square-off. */
export interface SquareOffPlan {
  readonly exchange: Exchange;
  /** The IST date of the session it is for. */
  readonly date: string;
  readonly at: number;
  readonly warnAt: number;
  /** The session's close: after it there is nothing left to square off. */
  readonly close: number;
}

/**
 * The square-off of the session in progress or, while closed, of the next one. The time is kept
 * as its lead over the exchange's regular close, so a session of other hours (a shortened day, a
 * special evening session) is squared off as long before its own close, never before it opens.
 * A holiday has no session in the calendar, so it has no square-off: the next one is the next
 * trading day's.
 */
export function squareOffPlan(exchange: Exchange, time: ClockTime, session: SessionTimes): SquareOffPlan {
  const leadMs = (CLOSE_MINUTE[exchange] - minuteOfDay(time)) * 60_000;
  const close = session.nextClose;
  let at = close - leadMs;
  if (session.phase === 'closed') at = Math.max(at, session.nextOpen);
  return { exchange, date: istDate(close), at, warnAt: at - WARN_BEFORE_MS, close };
}

/** What the scheduler does for one exchange now. */
export type SquareOffDecision = 'wait' | 'warn' | 'run' | 'ask' | 'done';

export interface SquareOffFacts {
  /** The market's clock, epoch ms. */
  readonly now: number;
  readonly plan: SquareOffPlan;
  /** The session date this exchange was last squared off (or declined, or found with nothing open); persisted. */
  readonly doneOn: string | null;
  /** Since when main has been watching (this start), on the market's clock. */
  readonly watchingSince: number;
  /** Intraday positions or working intraday orders on the exchange; null when not known. */
  readonly exposed: boolean | null;
}

/**
 * - done for the session already (persisted, so a restart never runs it twice): `done`;
 * - before the warning: `wait`; within two minutes of the time with something open: `warn`;
 * - at the time, main having watched since before it: `run` (nothing open: `done`); main started
 *   after the time (a restart across it) with something open or not known: `ask`;
 * - after the close: `done` (nothing intraday is left to square off).
 */
export function squareOffDecision(f: SquareOffFacts): SquareOffDecision {
  if (f.doneOn === f.plan.date) return 'done';
  if (f.now < f.plan.warnAt) return 'wait';
  if (f.now < f.plan.at) return f.exposed === false ? 'wait' : 'warn';
  if (f.now >= f.plan.close || f.exposed === false) return 'done';
  return f.watchingSince < f.plan.at ? 'run' : 'ask';
}
