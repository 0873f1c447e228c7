import type { Exchange } from '@shared/domain/instrument';
import type { ExchangeSession, MarketStatus, SessionPhase } from '@shared/domain/market';
import { IST_OFFSET_MS, istDate, istDayStart, toIstIso } from '@shared/lib/ist-time';
import { CLOSE_MINUTE } from '@shared/trading/market-hours';

/**
 * The exchanges' regular hours in IST, for a broker that publishes no market status (Kite has
 * no status endpoint). Weekends are closed; exchange holidays are not known here, so on a
 * holiday a quote says `open` and the exchange's own refusal of a regular order is what the
 * trader sees (docs/kite.md §Quotes).
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const EQUITY = { preOpen: 9 * 60, open: 9 * 60 + 15, close: CLOSE_MINUTE.NSE };
const HOURS: Readonly<Record<Exchange, { preOpen: number | null; open: number; close: number }>> = {
  NSE: EQUITY,
  BSE: EQUITY,
  NFO: { ...EQUITY, preOpen: null },
  BFO: { ...EQUITY, preOpen: null },
  MCX: { preOpen: null, open: 9 * 60, close: CLOSE_MINUTE.MCX },
  CDS: { preOpen: null, open: 9 * 60, close: CLOSE_MINUTE.CDS },
};

/** Every exchange the app trades, in the status list's order. */
export const KITE_EXCHANGES: readonly Exchange[] = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'];

const weekend = (date: string): boolean => {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 || d === 6;
};
const at = (date: string, minutes: number): number =>
  Date.parse(`${date}T00:00:00Z`) - IST_OFFSET_MS + minutes * MINUTE;
const nextWeekday = (date: string): string => {
  let ms = Date.parse(`${date}T00:00:00Z`) + DAY;
  while (weekend(new Date(ms).toISOString().slice(0, 10))) ms += DAY;
  return new Date(ms).toISOString().slice(0, 10);
};

/** Where `exchange` stands at `now` by its regular hours. */
export function kiteSession(exchange: Exchange, now: number): ExchangeSession {
  const h = HOURS[exchange];
  const today = istDate(now);
  const minute = Math.floor((now - istDayStart(now)) / MINUTE);
  const times = (date: string) => ({
    nextPreOpen: h.preOpen === null ? null : toIstIso(at(date, h.preOpen)),
    nextOpen: toIstIso(at(date, h.open)),
    nextClose: toIstIso(at(date, h.close)),
  });
  const closed = (detail: string, date: string): ExchangeSession => ({
    exchange,
    phase: 'closed',
    detail,
    ...times(date),
  });
  if (weekend(today)) return closed('Weekend', nextWeekday(today));
  if (minute < (h.preOpen ?? h.open)) return closed('Before the pre-open', today);
  if (minute >= h.close) return closed('After hours', nextWeekday(today));
  const following = times(nextWeekday(today));
  const phase: SessionPhase = minute < h.open ? 'pre_open' : 'open';
  return {
    exchange,
    phase,
    detail: phase === 'pre_open' ? 'Pre-open' : null,
    nextPreOpen: following.nextPreOpen,
    nextOpen: phase === 'pre_open' ? toIstIso(at(today, h.open)) : following.nextOpen,
    nextClose: toIstIso(at(today, h.close)),
  };
}

/** When a Kite access token stops working: the next 06:00 IST after `now` (docs/kite.md §Login). */
export function kiteTokenExpiry(now: number): string {
  const sixToday = istDayStart(now) + 6 * 60 * MINUTE;
  return toIstIso(now < sixToday ? sixToday : sixToday + DAY);
}

/** An instant as Kite's IST `yyyy-mm-dd hh:mm:ss`. */
export function kiteQueryTime(ms: number): string {
  return toIstIso(ms).slice(0, 19).replace('T', ' ');
}

/** The market's status as the exchanges' regular hours give it, for a broker that publishes none. */
export function regularHoursStatus(now: number): MarketStatus {
  return {
    now: toIstIso(now),
    simulated: false,
    speed: 1,
    exchanges: KITE_EXCHANGES.map((e) => kiteSession(e, now)),
  };
}
