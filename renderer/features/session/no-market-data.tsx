import type { ReactNode } from 'react';
import { Panel } from '../layout/panel';
import { NO_MARKET_DATA, useMarketData } from './use-market-data';

/**
 * What a market-data panel shows on an account without market data (docs/kite.md §The plan):
 * why, and what it would show — never an error or a stale mark, since nothing failed.
 */
export function NoMarketDataNote({ what }: { readonly what: string }) {
  return (
    <p className="empty no-market-data" role="note">
      <strong>{NO_MARKET_DATA}</strong>: {what} need Kite Connect&apos;s market data (the paid plan).
    </p>
  );
}

/**
 * A panel that only market data can fill (the chart, the depth, the option chain): `children` as
 * usual, or — on an account without market data — the panel with the note instead, so none of
 * its reads is ever made.
 */
export function NeedsMarketData(props: {
  readonly title: string;
  readonly className: string;
  /** What the panel would show ("Candles and live prices"). */
  readonly what: string;
  readonly children: ReactNode;
}) {
  return useMarketData() ? (
    props.children
  ) : (
    <Panel title={props.title} className={props.className}>
      <NoMarketDataNote what={props.what} />
    </Panel>
  );
}
