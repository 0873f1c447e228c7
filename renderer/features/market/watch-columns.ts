import { useCallback, useSyncExternalStore, type CSSProperties } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { formatPrice } from '../../lib/format';
import type { Quote } from './quote-cache';
import { useQuotesStore } from './use-quotes';

/**
 * How wide a price's text is, in em of its font, from its characters: a tabular digit about
 * 0.64 em, a separator about 0.34, a sign or other character 0.9 — a little over the common UI
 * fonts (DejaVu Sans, Segoe UI, Roboto), so a column sized by it holds the text it was sized for.
 */
export function textEms(text: string): number {
  let ems = 0;
  for (const c of text) ems += c >= '0' && c <= '9' ? 0.64 : c === ',' || c === '.' ? 0.34 : 0.9;
  return ems;
}

/** What the watchlist's price columns must hold now (`watchColumnsNow`). */
export interface WatchColumns {
  /** The widest last price shown, in em. */
  readonly ltpEms: number;
  /** The widest best bid or offer shown, in em. */
  readonly bidAskEms: number;
}

/**
 * The widest text each price column of the watchlist shows now. A price's width grows with its
 * magnitude for a given number of decimals, so only the largest price of each tick's decimals is
 * formatted (with its sign, if any is negative), not every row's on every batch of ticks.
 */
export function watchColumnsNow(
  rows: readonly Instrument[],
  quoteOf: (token: number) => Quote | undefined,
): WatchColumns {
  const ltp = new Map<number, number>();
  const bidAsk = new Map<number, number>();
  const widest = (into: Map<number, number>, tickSize: number, v: number | null | undefined) => {
    if (v === null || v === undefined) return;
    const held = into.get(tickSize) ?? 0;
    // Kept as a negative number when the widest so far has a sign: its text is a character longer.
    if (Math.abs(v) > Math.abs(held) || (Math.abs(v) === Math.abs(held) && v < 0)) into.set(tickSize, v);
  };
  for (const i of rows) {
    const q = quoteOf(i.instrumentToken);
    widest(ltp, i.tickSize, q?.lastPrice ?? i.lastPrice);
    widest(bidAsk, i.tickSize, q?.bid);
    widest(bidAsk, i.tickSize, q?.ask);
  }
  const ems = (m: Map<number, number>) => {
    let most = 0;
    for (const [tickSize, v] of m) most = Math.max(most, textEms(formatPrice(v, tickSize)));
    return most;
  };
  return { ltpEms: ems(ltp), bidAskEms: ems(bidAsk) };
}

/**
 * The watchlist's price columns sized to the widest price each shows now, as CSS custom
 * properties for its table (renderer/styles/global.css `.grid--watch`). The table's layout is
 * fixed and each price box a fixed size, so a tick never lays out more than its box
 * (docs/live-data.md §A ticking list's cost); columns that held only a four-digit price let a
 * six-digit price and its bid and offer run over the next column. Re-renders only when a
 * column's width changes (a price gaining a digit), not on every tick.
 */
export function useWatchColumns(rows: readonly Instrument[]): CSSProperties {
  const store = useQuotesStore();
  const subscribe = useCallback((changed: () => void) => store.subscribeAll(changed), [store]);
  // A primitive snapshot (quarter-em steps: half an em left a four-digit list's columns wider
  // than the small screen's watchlist), so React re-renders the list only when a width moves.
  const key = useSyncExternalStore(subscribe, () => {
    const c = watchColumnsNow(rows, (t) => store.get(t));
    return `${Math.ceil(c.ltpEms * 4) / 4}|${Math.ceil(c.bidAskEms * 4) / 4}`;
  });
  const [ltpEms, bidAskEms] = key.split('|');
  return { '--watch-ltp-ems': ltpEms, '--watch-bid-ask-ems': bidAskEms } as CSSProperties;
}
