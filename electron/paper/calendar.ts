import type { Exchange } from '@shared/domain/instrument';
import type { SessionPhase } from '@shared/domain/market';
import { IST_OFFSET_MS, istDate, istDayStart } from '@shared/lib/ist-time';
import { CLOSE_MINUTE } from '@shared/trading/market-hours';

/**
 * The exchanges' trading calendar in IST (docs/api.md §Sessions and the calendar): hours per
 * exchange, weekends, and the paper market's holiday list. Pure functions of an instant, so the
 * market, matching, candles and the status endpoint all agree on whether an exchange is open.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** One exchange's day, in minutes after IST midnight. */
export interface Hours {
  /** Where orders are collected before the open; null without a pre-open. */
  readonly preOpen: number | null;
  readonly open: number;
  readonly close: number;
}

const EQUITY_HOURS: Hours = { preOpen: 9 * 60, open: 9 * 60 + 15, close: CLOSE_MINUTE.NSE };

/** Hours per exchange (docs/api.md §Sessions and the calendar). */
export const HOURS: Readonly<Record<Exchange, Hours>> = {
  NSE: EQUITY_HOURS,
  BSE: EQUITY_HOURS,
  NFO: EQUITY_HOURS,
  BFO: EQUITY_HOURS,
  MCX: { preOpen: null, open: 9 * 60, close: CLOSE_MINUTE.MCX },
  CDS: { preOpen: null, open: 9 * 60, close: CLOSE_MINUTE.CDS },
};

/** Every exchange, in the order the status endpoint lists them. */
export const EXCHANGES: readonly Exchange[] = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'];

/**
 * The paper market's holidays: modelled on NSE's 2026 calendar and the fixed-date holidays of
 * 2027 that fall on weekdays. Every exchange closes on them.
 */
export const HOLIDAYS: ReadonlyMap<string, string> = new Map([
  ['2026-01-26', 'Republic Day'],
  ['2026-03-03', 'Holi'],
  ['2026-03-26', 'Ram Navami'],
  ['2026-03-31', 'Mahavir Jayanti'],
  ['2026-04-03', 'Good Friday'],
  ['2026-04-14', 'Ambedkar Jayanti'],
  ['2026-05-01', 'Maharashtra Day'],
  ['2026-05-28', 'Bakri Id'],
  ['2026-06-26', 'Muharram'],
  ['2026-09-14', 'Ganesh Chaturthi'],
  ['2026-10-02', 'Gandhi Jayanti'],
  ['2026-10-20', 'Dussehra'],
  ['2026-11-10', 'Diwali Balipratipada'],
  ['2026-11-24', 'Guru Nanak Jayanti'],
  ['2026-12-25', 'Christmas'],
  ['2027-01-26', 'Republic Day'],
]);

/** The weekday (0 = Sunday) of an IST date `YYYY-MM-DD`. */
function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Why `date` is not a trading day ("Weekend", "Holiday: Christmas"), or null when it is one. */
export function closedDay(date: string): string | null {
  const w = weekday(date);
  if (w === 0 || w === 6) return 'Weekend';
  const h = HOLIDAYS.get(date);
  return h === undefined ? null : `Holiday: ${h}`;
}

/** True when the exchanges trade on the IST date `date`. */
export function isTradingDay(date: string): boolean {
  return closedDay(date) === null;
}

/** The IST date `days` calendar days after `date`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first trading day strictly after `date`. */
export function nextTradingDay(date: string): string {
  let d = addDays(date, 1);
  while (!isTradingDay(d)) d = addDays(d, 1);
  return d;
}

/** The last trading day strictly before `date`. */
export function previousTradingDay(date: string): string {
  let d = addDays(date, -1);
  while (!isTradingDay(d)) d = addDays(d, -1);
  return d;
}

/** Epoch ms of `minutes` after IST midnight on `date`. */
export function atMinute(date: string, minutes: number): number {
  return Date.parse(`${date}T00:00:00Z`) - IST_OFFSET_MS + minutes * MINUTE_MS;
}

/** One exchange's session at an instant (docs/api.md §GET /market/status). */
export interface SessionState {
  readonly exchange: Exchange;
  readonly phase: SessionPhase;
  /** Why it is closed, or "Pre-open"; null while open. */
  readonly detail: string | null;
  readonly nextPreOpen: number | null;
  readonly nextOpen: number;
  readonly nextClose: number;
  /** The IST date of the session in progress or, when closed, of the next one. */
  readonly sessionDate: string;
}

/** Where `exchange` stands at `at`, and when it next opens and closes. */
export function sessionAt(exchange: Exchange, at: number): SessionState {
  const h = HOURS[exchange];
  const today = istDate(at);
  const minute = Math.floor((at - istDayStart(at)) / MINUTE_MS);
  const next = (date: string) => ({
    nextPreOpen: h.preOpen === null ? null : atMinute(date, h.preOpen),
    nextOpen: atMinute(date, h.open),
    nextClose: atMinute(date, h.close),
  });
  const why = closedDay(today);
  if (why !== null) {
    const d = nextTradingDay(today);
    return { exchange, phase: 'closed', detail: why, sessionDate: d, ...next(d) };
  }
  const start = h.preOpen ?? h.open;
  if (minute < start)
    return { exchange, phase: 'closed', detail: 'Before the pre-open', sessionDate: today, ...next(today) };
  if (minute >= h.close) {
    const d = nextTradingDay(today);
    return { exchange, phase: 'closed', detail: 'After hours', sessionDate: d, ...next(d) };
  }
  const following = next(nextTradingDay(today));
  if (minute < h.open) {
    return {
      exchange,
      phase: 'pre_open',
      detail: 'Pre-open',
      sessionDate: today,
      nextPreOpen: following.nextPreOpen,
      nextOpen: atMinute(today, h.open),
      nextClose: atMinute(today, h.close),
    };
  }
  return {
    exchange,
    phase: 'open',
    detail: null,
    sessionDate: today,
    nextPreOpen: following.nextPreOpen,
    nextOpen: following.nextOpen,
    nextClose: atMinute(today, h.close),
  };
}

/** The last answer of `isOpen` per exchange, by minute: every price move asks, and minutes rarely change. */
const openMemo = new Map<Exchange, { minute: number; open: boolean }>();

/** True when `exchange` is in normal trading at `at`. */
export function isOpen(exchange: Exchange, at: number): boolean {
  const minute = Math.floor(at / MINUTE_MS);
  const memo = openMemo.get(exchange);
  if (memo?.minute === minute) return memo.open;
  const open = sessionAt(exchange, at).phase === 'open';
  openMemo.set(exchange, { minute, open });
  return open;
}

/**
 * Where a new user's simulated market clock starts (docs/api.md §Sessions and the calendar):
 * the wall time itself when NSE is open then, else 09:15 IST of the next trading day (today's,
 * before the open), so the market a newcomer meets is open whatever the hour.
 */
export function openMarketStart(wall: number): number {
  const s = sessionAt('NSE', wall);
  if (s.phase === 'open') return wall;
  return s.phase === 'pre_open' ? s.nextOpen : atMinute(s.sessionDate, HOURS.NSE.open);
}

/**
 * The ends of every `exchange` session between `from` (exclusive) and `to` (inclusive), oldest
 * first, as `[date, closeMs]`: what the engine processes when the clock passes a close.
 */
export function closesBetween(exchange: Exchange, from: number, to: number): Array<readonly [string, number]> {
  const out: Array<readonly [string, number]> = [];
  let date = istDate(from);
  const last = istDate(to);
  while (date <= last) {
    if (isTradingDay(date)) {
      const close = atMinute(date, HOURS[exchange].close);
      if (close > from && close <= to) out.push([date, close]);
    }
    date = addDays(date, 1);
  }
  return out;
}

/**
 * The session minutes of `exchange` ending at `end` (exclusive), newest first: the start of
 * every minute inside normal hours on trading days, going back until `count` are found. The
 * candle history is generated on these (no bar outside a session).
 */
export function sessionMinutesBefore(exchange: Exchange, end: number, count: number): number[] {
  const h = HOURS[exchange];
  const out: number[] = [];
  let date = istDate(end);
  while (out.length < count) {
    if (isTradingDay(date)) {
      const open = atMinute(date, h.open);
      const limit = Math.min(atMinute(date, h.close), end);
      // The last whole minute that ends by the limit, back to the open.
      for (let t = open + (Math.floor((limit - open) / MINUTE_MS) - 1) * MINUTE_MS; t >= open; t -= MINUTE_MS) {
        out.push(t);
        if (out.length === count) break;
      }
    }
    date = addDays(date, -1);
  }
  return out;
}
