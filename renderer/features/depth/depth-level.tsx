import type { CSSProperties } from 'react';
import { formatPrice, formatQty } from '../../lib/format';
import { useHoverTitle } from '../../lib/use-hover-title';

/** One level of one side of the ladder, as primitive props so an unchanged level compares equal. */
export interface DepthLevelProps {
  readonly side: 'bid' | 'offer';
  /** 1 for the best level. */
  readonly rank: number;
  /** Null for a level the book does not have (a thin book, a side at its circuit). */
  readonly price: number | null;
  readonly quantity: number;
  /** Null where the broker's feed does not count them (Upstox's market data feed: docs/upstox.md §The adapter). */
  readonly orders: number | null;
  readonly tickSize: number;
  /** Prices the ticket at this level; must keep its identity across ticks (see `DepthLadder`). */
  readonly onPick: (price: number) => void;
  /** The id of the ladder's one text saying what a price button does (its accessible description). */
  readonly hintId: string;
}

/**
 * The three cells of one level: price (a button that prices the ticket there), orders and
 * quantity, with a bar behind the quantity sized against the largest visible level
 * (`--depth-max`, set once on the table, so a new maximum does not re-render every level).
 * Bids read outward from the middle (quantity, orders, price), offers the other way.
 */
export function DepthLevelCells(props: DepthLevelProps) {
  const { side, price } = props;
  const word = side === 'bid' ? 'Bid' : 'Offer';
  // The level's price moves with the book: its title is made on hover only (`useHoverTitle`). What
  // the button does is said to a keyboard or a screen reader by the ladder's one static hint.
  const hover = useHoverTitle(() =>
    price === null ? undefined : `Price the ticket at ${formatPrice(price, props.tickSize)} (LIMIT)`,
  );
  const priceCell = (
    <td className={`num depth__price depth__price--${side}`}>
      {price === null ? null : (
        <button
          type="button"
          aria-label={`${word} ${formatPrice(price, props.tickSize)}`}
          aria-describedby={props.hintId}
          {...hover}
          onClick={() => props.onPick(price)}
        >
          {formatPrice(price, props.tickSize)}
        </button>
      )}
    </td>
  );
  const orders = (
    <td className="num depth__orders">{price === null ? '' : props.orders === null ? '–' : formatQty(props.orders)}</td>
  );
  const quantity = (
    <td
      className={`num depth__qty depth__qty--${side}`}
      style={{ '--q': price === null ? 0 : props.quantity } as CSSProperties}
      data-rank={props.rank}
    >
      {price === null ? '' : formatQty(props.quantity)}
    </td>
  );
  return side === 'bid' ? (
    <>
      {quantity}
      {orders}
      {priceCell}
    </>
  ) : (
    <>
      {priceCell}
      {orders}
      {quantity}
    </>
  );
}
