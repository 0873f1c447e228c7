import { useSyncExternalStore } from 'react';
import { formatAge, formatPrice } from '../../lib/format';
import { useHoverTitle } from '../../lib/use-hover-title';
import { useClock } from '../../lib/use-now';
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
  const { quote } = props;
  const clock = useClock();
  // Re-rendered by the clock only when the price turns stale, not every second, and its title
  // (the age) made on hover: a title changing every second restyled every row's price box once
  // a second (docs/live-data.md §A ticking list's cost).
  const stale = useSyncExternalStore(clock.subscribe, () => isStale(quote, clock.now()));
  const hover = useHoverTitle(() => {
    if (quote === undefined) return 'No tick yet: last price from the instrument list';
    const age = formatAge(Math.max(0, clock.now() - quote.receivedAt));
    return `${stale ? `Stale: no tick for ${age}` : `Last tick ${age === 'now' ? 'just now' : `${age} ago`}`}${quote.source === 'poll' ? ' (polled; the stream is down)' : ''}`;
  });
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
  const state = quote === undefined ? 'none' : stale ? 'stale' : quote.source === 'poll' ? 'polled' : 'live';
  return (
    <span
      className={`live-price live-price--${state}${props.className ? ` ${props.className}` : ''}`}
      data-testid={props.testId}
      data-quote={state}
      {...hover}
    >
      {formatPrice(quote?.lastPrice ?? props.fallback, props.tickSize)}
    </span>
  );
}
