import type { Exchange } from '../domain/instrument';
import { IST_OFFSET_MS } from '../lib/ist-time';

/**
 * When each exchange's regular session closes, in minutes after IST midnight (docs/api.md
 * §Sessions and the calendar): a contract expiring on a date stops trading at that day's close.
 * The paper market's calendar, the Kite adapter's hours and the strategy builder's time to
 * expiry read it from here.
 */
export const CLOSE_MINUTE: Readonly<Record<Exchange, number>> = {
  NSE: 15 * 60 + 30,
  BSE: 15 * 60 + 30,
  NFO: 15 * 60 + 30,
  BFO: 15 * 60 + 30,
  MCX: 23 * 60 + 30,
  CDS: 17 * 60,
};

/** The instant (epoch ms) a contract on `exchange` expiring on `date` (YYYY-MM-DD, IST) stops trading. */
export function expiryInstant(exchange: Exchange, date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - IST_OFFSET_MS + CLOSE_MINUTE[exchange] * 60_000;
}
