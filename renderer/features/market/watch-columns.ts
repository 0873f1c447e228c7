import { useCallback, useSyncExternalStore, type CSSProperties } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { formatPrice } from '../../lib/format';
import { useClock } from '../../lib/use-now';
import { isStale, type Quote } from './quote-cache';
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
  /** A last price carries its "stale" or "poll" tag beside it. */
  readonly tagged: boolean;
}

/**
 * The widest text each price column of the watchlist shows now. A price's width grows with its
 * magnitude for a given number of decimals, so only the largest price of each tick's decimals is
 * formatted, not every row's on every batch of ticks.
 */
export function watchColumnsNow(
  rows: readonly Instrument[],
  quoteOf: (token: number) => Quote | undefined,
  now: number,
): WatchColumns {
  const ltp = new Map<number, number>();
  const bidAsk = new Map<number, number>();
  let tagged = false;
  const widest = (into: Map<number, number>, tickSize: number, v: number | null | undefined) => {
    if (v === null || v === undefined) return;
    into.set(tickSize, Math.max(into.get(tickSize) ?? 0, Math.abs(v)));
  };
  for (const i of rows) {
    const q = quoteOf(i.instrumentToken);
    widest(ltp, i.tickSize, q?.lastPrice ?? i.lastPrice);
    widest(bidAsk, i.tickSize, q?.bid);
    widest(bidAsk, i.tickSize, q?.ask);
    if (q !== undefined && (q.source === 'poll' || isStale(q, now))) tagged = true;
  }
  const ems = (m: Map<number, number>) =>
    Math.max(0, ...[...m].map(([tickSize, v]) => textEms(formatPrice(v, tickSize))));
  return { ltpEms: ems(ltp), bidAskEms: ems(bidAsk), tagged };
}

/**
 * The watchlist's price columns sized to the widest price each shows now, as CSS custom
 * properties for its table (renderer/styles/global.css `.grid--watch`). The table's layout is
 * fixed and each price box a fixed size, so a tick never lays out more than its box (docs/live-data.md
 * §A ticking list's cost); a column that held only the common four-digit price let a NIFTY future's
 * 24,512.20 or a stale price's tag run over the next column. Re-renders only when a column's width
 * changes (a price gaining a digit, a tag appearing), not on every tick.
 */
export function useWatchColumns(rows: readonly Instrument[]): CSSProperties {
  const store = useQuotesStore();
  const clock = useClock();
  const subscribe = useCallback(
    (changed: () => void) => {
      const offTicks = store.subscribeAll(changed);
      const offClock = clock.subscribe(changed);
      return () => {
        offTicks();
        offClock();
      };
    },
    [store, clock],
  );
  // A primitive snapshot (quarter-em steps: half an em left a four-digit list's columns wider
  // than the small screen's watchlist), so React re-renders the list only when a width moves.
  const key = useSyncExternalStore(subscribe, () => {
    const c = watchColumnsNow(rows, (t) => store.get(t), clock.now());
    return `${Math.ceil(c.ltpEms * 4) / 4}|${Math.ceil(c.bidAskEms * 4) / 4}|${c.tagged ? 1 : 0}`;
  });
  const [ltpEms, bidAskEms, tagged] = key.split('|');
  return {
    '--watch-ltp-ems': ltpEms,
    '--watch-bid-ask-ems': bidAskEms,
    '--watch-ltp-tag': tagged === '1' ? 'var(--watch-tag-width)' : '0px',
  } as CSSProperties;
}
