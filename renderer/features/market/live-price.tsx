import { formatAge, formatPrice } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { NO_MARKET_DATA } from '../session/use-market-data';
import { isStale, type Quote } from './quote-cache';

/**
 * A last price that says when it is not live: greyed and tagged "stale" once it has not
 * moved for a while, "polled" while it comes from the fallback rather than the stream. The
 * tag is CSS content, so the cell's text stays the bare price (copy-paste, tests).
 */
export function LivePrice(props: {
  readonly quote: Quote | undefined;
  readonly fallback: number;
  /** The instrument's tick: the price shows the decimals it needs (docs/api.md §Numbers and money units). */
  readonly tickSize?: number;
  readonly testId?: string;
  readonly className?: string;
  /**
   * The account has no market data (docs/kite.md §The plan): no price is shown — the instrument
   * list's would be a stale figure passed off as the market's.
   */
  readonly noMarketData?: boolean;
}) {
  const now = useNow();
  const { quote } = props;
  if (props.noMarketData === true)
    return (
      <span
        className={`live-price live-price--none${props.className ? ` ${props.className}` : ''}`}
        data-testid={props.testId}
        data-quote="none"
        title={NO_MARKET_DATA}
      >
        –
      </span>
    );
  const stale = isStale(quote, now);
  const state = quote === undefined ? 'none' : stale ? 'stale' : quote.source === 'poll' ? 'polled' : 'live';
  const age = quote ? formatAge(Math.max(0, now - quote.receivedAt)) : '';
  const title =
    quote === undefined
      ? 'No tick yet: last price from the instrument list'
      : `${stale ? `Stale: no tick for ${age}` : `Last tick ${age === 'now' ? 'just now' : `${age} ago`}`}${quote.source === 'poll' ? ' (polled; the stream is down)' : ''}`;
  return (
    <span
      className={`live-price live-price--${state}${props.className ? ` ${props.className}` : ''}`}
      data-testid={props.testId}
      data-quote={state}
      title={title}
    >
      {formatPrice(quote?.lastPrice ?? props.fallback, props.tickSize)}
    </span>
  );
}
