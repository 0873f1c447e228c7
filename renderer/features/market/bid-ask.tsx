import { formatPrice } from '../../lib/format';
import type { Quote } from './quote-cache';
import './bid-ask.css';

/**
 * The best bid over the best offer, small, in one cell (a watchlist row has room for one more
 * narrow column, not two). `–` for a side the book does not have or a tick that did not say
 * (an `ltp` tick, a broker without quotes).
 */
export function BidAsk(props: {
  readonly quote: Quote | undefined;
  readonly tickSize: number;
  readonly symbol: string;
}) {
  const { quote } = props;
  return (
    <span className="bid-ask" data-testid={`bidask-${props.symbol}`}>
      <span className="bid-ask__bid" title="Best bid" data-testid={`bid-${props.symbol}`}>
        {formatPrice(quote?.bid, props.tickSize)}
      </span>
      <span className="bid-ask__ask" title="Best offer" data-testid={`ask-${props.symbol}`}>
        {formatPrice(quote?.ask, props.tickSize)}
      </span>
    </span>
  );
}
