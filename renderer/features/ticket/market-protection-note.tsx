import type { OrderType } from '@shared/domain/order';

/** "automatic" or "2%": a profile's market protection as the trader reads it. */
export function protectionText(protection: number): string {
  return protection === -1 ? 'automatic' : `${protection}%`;
}

/**
 * For a MARKET or SL-M order on a broker that protects them (Kite: docs/kite.md §Market
 * protection), what it will be: a LIMIT at most that far from the last price (from the trigger
 * for SL-M), which fills what the book offers up to there and may rest if the price runs away.
 * The percentage is the profile's setting (the session dialog).
 */
export function MarketProtectionNote(props: { readonly orderType: OrderType; readonly protection: number }) {
  if (props.orderType !== 'MARKET' && props.orderType !== 'SL-M') return null;
  const from = props.orderType === 'MARKET' ? 'the last price' : 'the trigger';
  const how =
    props.protection === -1
      ? `within Kite's automatic percentage of ${from}`
      : `at most ${props.protection}% from ${from}`;
  return (
    <p className="ticket__note" data-testid="market-protection" title="Set per profile in the session dialog">
      <strong>Market protection: {protectionText(props.protection)}</strong> — Kite places it as a{' '}
      {props.orderType === 'MARKET' ? 'LIMIT' : 'stop-limit'} {how}; it may rest unfilled if the price runs past it.
    </p>
  );
}
