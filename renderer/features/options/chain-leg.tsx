import { memo } from 'react';
import type { OptionLeg } from '@shared/domain/market';
import type { TransactionType } from '@shared/domain/order';
import { greeks } from '@shared/trading/options-pricing';
import { formatPrice, signClass } from '../../lib/format';
import { useQuote } from '../market/use-quotes';
import { formatChange, formatDelta, formatOi, formatOiChange } from './chain-model';
import type { ChainTarget } from './option-chain-store';

/** The Greeks columns (Γ, Θ a day, vega a point) of one side, from the chain's IV by the shared model. */
const GREEK_CELLS = 3;

/**
 * One side of one strike: open interest and its change since the previous day, IV, delta — and,
 * when shown, gamma, theta a day and vega a point, from the chain's IV by the model the paper
 * market prices with (docs/strategy.md §The option chain) — and the last price over its change:
 * the price and change live from the stream (the chain's own figures until the first tick), the
 * rest from the chain's last read. Calls read outward from the strike to the left, puts to the
 * right. The last price is the button that opens the ticket on the contract; B and S beside it
 * add one lot at that price to the basket (docs/desk.md §Baskets) or, in strategy mode, to the
 * strategy builder's legs. Re-renders only when its own contract ticks or the chain is re-read.
 */
export const ChainLeg = memo(function ChainLeg(props: {
  readonly kind: 'call' | 'put';
  readonly leg: OptionLeg | null;
  readonly itm: boolean;
  readonly tickSize: number;
  readonly strike: number;
  /** The underlying's price and the years to expiry the Greeks are taken at; null hides the Greeks. */
  readonly greeksAt: { readonly spot: number; readonly years: number } | null;
  /** Where B / S add the contract. */
  readonly target: ChainTarget;
  /** Opens the ticket on this contract; absent when the instrument list does not have it yet. */
  readonly onTrade: ((instrumentToken: number) => void) | undefined;
  /** Adds this contract to the basket or the strategy on a side at the price shown; absent like `onTrade`. */
  readonly onAdd: ((instrumentToken: number, side: TransactionType, lastPrice: number) => void) | undefined;
}) {
  const { leg, kind } = props;
  const quote = useQuote(leg?.instrumentToken);
  const cls = `chain__${kind}${props.itm ? ' is-itm' : ''}`;
  if (!leg) {
    const blank = <td className={`num ${cls}`} />;
    return (
      <>
        {blank}
        <td className={`num ${cls} chain__oichg`} />
        <td className={`num ${cls} chain__iv`} />
        {blank}
        {props.greeksAt ? Array.from({ length: GREEK_CELLS }, (_, n) => <td key={n} className={`num ${cls}`} />) : null}
        {blank}
      </>
    );
  }
  const g = props.greeksAt
    ? greeks(kind === 'call' ? 'CE' : 'PE', props.greeksAt.spot, props.strike, props.greeksAt.years, leg.iv / 100)
    : null;
  const where = props.target === 'basket' ? 'basket' : 'strategy';
  const last = quote?.lastPrice ?? leg.lastPrice;
  const change = quote?.change ?? leg.change;
  const cells = [
    <td key="oi" className={`num ${cls}`} title={`OI ${leg.oi.toLocaleString('en-IN')}`}>
      {formatOi(leg.oi)}
    </td>,
    <td
      key="oichg"
      className={`num ${cls} chain__oichg`}
      title={
        leg.oiChange === null
          ? 'OI change not known'
          : `OI change since the previous day ${formatOiChange(leg.oiChange)}`
      }
    >
      {formatOiChange(leg.oiChange)}
    </td>,
    <td key="iv" className={`num ${cls} chain__iv`}>
      {leg.iv.toFixed(2)}
    </td>,
    <td key="delta" className={`num ${cls}`}>
      {formatDelta(leg.delta)}
    </td>,
    ...(g
      ? [
          <td key="gamma" className={`num ${cls}`} data-testid="chain-gamma">
            {g.gamma.toFixed(4)}
          </td>,
          <td key="theta" className={`num ${cls}`}>
            {formatChange(g.theta)}
          </td>,
          <td key="vega" className={`num ${cls}`}>
            {g.vega.toFixed(2)}
          </td>,
        ]
      : []),
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
      {props.onAdd ? (
        <span className="chain__add">
          {(['BUY', 'SELL'] as const).map((side) => (
            <button
              key={side}
              type="button"
              className={side === 'BUY' ? 'buy' : 'sell'}
              aria-label={`Add ${side} ${leg.tradingsymbol} to ${where}`}
              title={`Add to the ${where}: ${side} one lot of ${leg.tradingsymbol} at ${formatPrice(last, props.tickSize)}`}
              onClick={() => props.onAdd?.(leg.instrumentToken, side, last)}
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
