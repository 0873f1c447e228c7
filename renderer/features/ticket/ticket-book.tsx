import type { Instrument } from '@shared/domain/instrument';
import type { OrderType, TransactionType } from '@shared/domain/order';
import { formatPrice, formatQty } from '../../lib/format';
import { depthOf, marketImpact, spreadOf } from '../depth/book-model';
import { SpreadText } from '../depth/spread-text';
import { useBook } from '../depth/use-book';

/**
 * The market the ticket prices against (docs/renderer.md, "Market depth, sessions and the
 * option chain on screen"): the best bid and offer with the spread beside the reference price,
 * and under Quantity what a MARKET order would take from the visible book.
 */

/**
 * "bid 1,412.15 / ask 1,412.25 · Spread 0.10 (2 ticks)": the touch and the spread, in rupees and
 * ticks. Each side is named in words as well as coloured (colour is never the only sign).
 */
export function TicketTouch({ instrument }: { readonly instrument: Instrument }) {
  const book = useBook(instrument.instrumentToken);
  if (!book) return null;
  const tick = instrument.tickSize;
  const spread = spreadOf(book.bid, book.ask, tick);
  return (
    <span className="ticket__touch" aria-label="Best bid and offer">
      <span className="buy" title="Best bid">
        <span className="ticket__touch-side">bid</span> <b data-testid="ticket-bid">{formatPrice(book.bid, tick)}</b>
      </span>
      <span className="muted">/</span>
      <span className="sell" title="Best offer">
        <span className="ticket__touch-side">ask</span> <b data-testid="ticket-ask">{formatPrice(book.ask, tick)}</b>
      </span>
      {spread ? <SpreadText spread={spread} tickSize={tick} /> : null}
    </span>
  );
}

/**
 * For a MARKET order larger than the best level: how many levels it walks and the average price
 * of what the visible book fills; a warning when it is larger than everything visible on the
 * side it takes — the rest stays open and fills at later prices (docs/api.md §Matching).
 */
export function TicketImpact(props: {
  readonly instrument: Instrument;
  readonly side: TransactionType;
  readonly orderType: OrderType;
  /** The quantity typed, when it is a number. */
  readonly quantity: number | null;
}) {
  const book = useBook(props.instrument.instrumentToken);
  const q = props.quantity;
  if (props.orderType !== 'MARKET' || !book || book.depth === null || q === null || !(q > 0)) return null;
  const tick = props.instrument.tickSize;
  const impact = marketImpact(depthOf(book), props.side, q);
  const sideWord = impact.side === 'ask' ? 'offer' : 'bid';
  if (impact.exceedsVisible) {
    return (
      <p className="ticket__impact ticket__impact--warn" role="status" data-testid="ticket-depth-warning">
        {impact.visible === 0
          ? `Nothing on the ${sideWord} side: a MARKET order would wait, open, for later prices`
          : `Only ${formatQty(impact.visible)} visible on the ${sideWord} side: ${formatQty(impact.fillable)} would fill at avg ${formatPrice(impact.averagePrice, tick)}, the rest wait, open, for later prices`}
      </p>
    );
  }
  if (impact.levels < 2) return null;
  return (
    <p className="ticket__impact" data-testid="ticket-depth-walk">
      Takes {impact.levels} levels (to {formatPrice(impact.worst, tick)}) · avg {formatPrice(impact.averagePrice, tick)}{' '}
      vs {formatPrice(impact.touch, tick)} at the touch
    </p>
  );
}
