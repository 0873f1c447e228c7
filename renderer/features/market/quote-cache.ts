import type { Tick } from '@shared/domain/market';
import { fromUnits, toUnits } from '@shared/trading/money';

/**
 * A last price as the renderer knows it: the tick, when this window received it (its own
 * clock, so the age is honest even if the broker's clock is off), and whether it came from the
 * stream or from the polling fallback.
 */
export interface Quote extends Tick {
  readonly receivedAt: number;
  readonly source: 'stream' | 'poll';
}

/** Latest quote per instrument token. */
export type Quotes = Readonly<Record<number, Quote>>;

/** A quote older than this is shown as stale: greyed and labelled, never as if live. */
export const STALE_AFTER_MS = 10_000;

/**
 * Whether a tick replaces the quote held for its instrument (the quotes store's rule,
 * `quotes-store.ts`): an older tick never overwrites a newer one (a poll landing after a stream
 * tick must not move the price back), and a poll repeating the stream's price changes nothing.
 */
export function takesTick(prev: Quote | undefined, t: Tick, source: Quote['source']): boolean {
  if (!prev) return true;
  if (Date.parse(prev.ts) > Date.parse(t.ts)) return false;
  return !(source === 'poll' && prev.lastPrice === t.lastPrice && prev.source === 'stream');
}

/** True when the quote has not moved for longer than `STALE_AFTER_MS`. */
export function isStale(q: Quote | undefined, now: number): boolean {
  return q !== undefined && now - q.receivedAt > STALE_AFTER_MS;
}

/**
 * Change from the previous close, absolute (exact, in integer price units: a CDS tick of ₹0.0025
 * is a change) and in percent; null without a close.
 */
export function changeFrom(
  previousClose: number | null | undefined,
  last: number,
): { abs: number; pct: number } | null {
  if (!previousClose || !last) return null;
  const abs = fromUnits(toUnits(last) - toUnits(previousClose));
  return { abs, pct: (abs / previousClose) * 100 };
}
