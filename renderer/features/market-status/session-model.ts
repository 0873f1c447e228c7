import type { Exchange } from '@shared/domain/instrument';
import type { ExchangeSession, MarketStatus } from '@shared/domain/market';

/**
 * The market's sessions in a trader's words, without React (docs/api.md §Sessions and the
 * calendar; docs/renderer.md, "Market depth, sessions and the option chain on screen").
 */

const IST_SHORT = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const IST_DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Kolkata',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const IST_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' });

/** One exchange's session, if the status lists it. */
export function sessionOf(status: MarketStatus | undefined, exchange: Exchange): ExchangeSession | undefined {
  return status?.exchanges.find((e) => e.exchange === exchange);
}

/** "15:30", or "09:15 Tue 24 Nov" when `at` falls on another IST day than `now`. */
export function sessionTime(at: string, now: string): string {
  const t = Date.parse(at);
  const time = IST_SHORT.format(t);
  return IST_DATE.format(t) === IST_DATE.format(Date.parse(now)) ? time : `${time} ${IST_DAY.format(t)}`;
}

/**
 * "open · closes 15:30", "pre-open · opens 09:15", "closed (After hours) · opens 09:15 Tue 24 Nov":
 * what an exchange is doing and what it does next, in IST.
 */
export function describeSession(s: ExchangeSession, now: string): string {
  switch (s.phase) {
    case 'open':
      return `open · closes ${sessionTime(s.nextClose, now)}`;
    case 'pre_open':
      return `pre-open · opens ${sessionTime(s.nextOpen, now)}`;
    case 'closed':
      return `closed${s.detail ? ` (${s.detail})` : ''} · opens ${sessionTime(s.nextOpen, now)}`;
  }
}

/**
 * Real milliseconds until the earliest next pre-open, open or close of any exchange (market time
 * runs `speed` times faster than the wall clock), or null when none is ahead.
 */
export function msToNextChange(status: MarketStatus): number | null {
  const now = Date.parse(status.now);
  let next = Infinity;
  for (const e of status.exchanges) {
    for (const at of [e.nextPreOpen, e.nextOpen, e.nextClose]) {
      if (at === null) continue;
      const t = Date.parse(at);
      if (t > now && t < next) next = t;
    }
  }
  return Number.isFinite(next) ? (next - now) / status.speed : null;
}

/** The longest the status goes unread: the market's clock may be moved (a demo, a test) at any time. */
const MAX_REREAD_MS = 60_000;
/** How long after a session change is due to read it: the broker flips it on its own next tick. */
const AFTER_CHANGE_MS = 1_000;

/** When to read the status again: a second after its next session change is due, at most a minute. */
export function rereadDelay(status: MarketStatus | undefined): number {
  const next = status ? msToNextChange(status) : null;
  if (next === null) return MAX_REREAD_MS;
  return Math.min(MAX_REREAD_MS, Math.ceil(next + AFTER_CHANGE_MS));
}
