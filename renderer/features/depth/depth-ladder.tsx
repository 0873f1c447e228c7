import { memo, useId, type CSSProperties } from 'react';
import type { DepthLevel, MarketDepth } from '@shared/domain/market';
import { formatQty } from '../../lib/format';
import { DepthLevelCells } from './depth-level';

/** The ladder shows the five levels a side that quotes and `full` ticks carry. */
export const LEVELS = 5;

/**
 * A level re-renders only when its own price, quantity or orders change: a tick that moves one
 * level of a 5×2 ladder re-renders that level's cells, not the other nine.
 */
const Level = memo(DepthLevelCells);

const RANKS = Array.from({ length: LEVELS }, (_, k) => k);

/** The largest visible quantity: what the bars are sized against. */
function largest(depth: MarketDepth): number {
  let max = 0;
  for (const l of depth.buy) max = Math.max(max, l.quantity);
  for (const l of depth.sell) max = Math.max(max, l.quantity);
  return max;
}

/**
 * The market depth ladder: bids on the left, best at the top, reading outward (quantity,
 * orders, price); offers on the right (price, orders, quantity); the totals of the whole book
 * (more than the five levels shown) underneath. Always five rows, so the ladder does not jump
 * when a side is thin; a missing level is blank, never a zero.
 */
export function DepthLadder(props: {
  readonly depth: MarketDepth;
  readonly totalBuyQuantity: number | null;
  readonly totalSellQuantity: number | null;
  readonly tickSize: number;
  /** Keeps its identity across ticks (a ref-backed callback), so unchanged levels stay memoised. */
  readonly onPick: (price: number) => void;
}) {
  const { depth } = props;
  const hintId = useId();
  const level = (side: 'bid' | 'offer', levels: readonly DepthLevel[], k: number) => {
    const l = levels[k];
    return (
      <Level
        side={side}
        rank={k + 1}
        price={l ? l.price : null}
        quantity={l ? l.quantity : 0}
        orders={l ? l.orders : 0}
        tickSize={props.tickSize}
        onPick={props.onPick}
        hintId={hintId}
      />
    );
  };
  // The table sits in a box of its own fixed height that contains its layout (depth.css): a
  // tick's new figures are laid out inside it, not from the document (docs/live-data.md §A
  // ticking list's cost). A table's own cells cannot be such boxes; the outer box is the panel
  // body's flex item, which cannot be one either.
  return (
    <div className="depth__box">
      <span id={hintId} hidden>
        Prices the ticket at this level (LIMIT)
      </span>
      <div className="depth__frame">
        <table
          aria-label="Market depth"
          className="grid depth"
          style={{ '--depth-max': Math.max(1, largest(depth)) } as CSSProperties}
        >
          <thead>
            <tr>
              <th className="num">Qty</th>
              <th className="num">Orders</th>
              <th className="num">Bid</th>
              <th className="num">Offer</th>
              <th className="num">Orders</th>
              <th className="num">Qty</th>
            </tr>
          </thead>
          <tbody>
            {RANKS.map((k) => (
              <tr key={k}>
                {level('bid', depth.buy, k)}
                {level('offer', depth.sell, k)}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td className="num" data-testid="depth-total-buy">
                {props.totalBuyQuantity === null ? '–' : formatQty(props.totalBuyQuantity)}
              </td>
              <th scope="row" colSpan={2} className="num depth__total-label">
                Total bids
              </th>
              <th scope="row" colSpan={2} className="depth__total-label">
                Total offers
              </th>
              <td className="num" data-testid="depth-total-sell">
                {props.totalSellQuantity === null ? '–' : formatQty(props.totalSellQuantity)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
