import { memo } from 'react';
import type { OptionLeg } from '@shared/domain/market';
import type { TransactionType } from '@shared/domain/order';
import { formatPrice, signClass } from '../../lib/format';
import { useQuote } from '../market/use-quotes';
import { formatChange, formatDelta, formatOi } from './chain-model';

/**
 * One side of one strike: open interest, IV, delta, and the last price over its change — the
 * price and change live from the stream (the chain's own figures until the first tick), the
 * rest from the chain's last read. Calls read outward from the strike to the left (OI, IV, Δ,
 * LTP), puts to the right. The last price is the button that opens the ticket on the contract;
 * B and S beside it add one lot at that price to the basket (docs/desk.md §Baskets).
 * Re-renders only when its own contract ticks or the chain is re-read.
 */
export const ChainLeg = memo(function ChainLeg(props: {
  readonly kind: 'call' | 'put';
  readonly leg: OptionLeg | null;
  readonly itm: boolean;
  readonly tickSize: number;
  /** Opens the ticket on this contract; absent when the instrument list does not have it yet. */
  readonly onTrade: ((instrumentToken: number) => void) | undefined;
  /** Adds this contract to the basket on a side at the price shown; absent like `onTrade`. */
  readonly onAddToBasket: ((instrumentToken: number, side: TransactionType, lastPrice: number) => void) | undefined;
}) {
  const { leg, kind } = props;
  const quote = useQuote(leg?.instrumentToken);
  const cls = `chain__${kind}${props.itm ? ' is-itm' : ''}`;
  if (!leg) {
    const blank = <td className={`num ${cls}`} />;
    return (
      <>
        {blank}
        <td className={`num ${cls} chain__iv`} />
        {blank}
        {blank}
      </>
    );
  }
  const last = quote?.lastPrice ?? leg.lastPrice;
  const change = quote?.change ?? leg.change;
  const cells = [
    <td key="oi" className={`num ${cls}`} title={`OI ${leg.oi.toLocaleString('en-IN')}`}>
      {formatOi(leg.oi)}
    </td>,
    <td key="iv" className={`num ${cls} chain__iv`}>
      {leg.iv.toFixed(2)}
    </td>,
    <td key="delta" className={`num ${cls}`}>
      {formatDelta(leg.delta)}
    </td>,
    <td key="ltp" className={`num ${cls} chain__ltp`}>
      <button
        type="button"
        aria-label={`Trade ${leg.tradingsymbol}`}
        title={
          props.onTrade
            ? `Open the ticket on ${leg.tradingsymbol}`
            : `${leg.tradingsymbol} is not in the instrument list yet`
        }
        disabled={!props.onTrade}
        onClick={() => props.onTrade?.(leg.instrumentToken)}
        data-testid={`chain-ltp-${leg.tradingsymbol}`}
      >
        {formatPrice(last, props.tickSize)}
      </button>
      <span className={`chain__chg ${signClass(change) || 'muted'}`}>{formatChange(change)}</span>
      {props.onAddToBasket ? (
        <span className="chain__add">
          {(['BUY', 'SELL'] as const).map((side) => (
            <button
              key={side}
              type="button"
              className={side === 'BUY' ? 'buy' : 'sell'}
              aria-label={`Add ${side} ${leg.tradingsymbol} to basket`}
              title={`Add to basket: ${side} one lot of ${leg.tradingsymbol}, LIMIT at ${formatPrice(last, props.tickSize)}`}
              onClick={() => props.onAddToBasket?.(leg.instrumentToken, side, last)}
            >
              {side === 'BUY' ? 'B' : 'S'}
            </button>
          ))}
        </span>
      ) : null}
    </td>,
  ];
  return <>{kind === 'call' ? cells : cells.reverse()}</>;
});
