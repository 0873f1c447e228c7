import { formatPrice } from '../../lib/format';
import { TickBox } from '../../lib/tick-box';
import type { Spread } from './book-model';

/** "Spread 0.10 (2 ticks)": the gap between the best offer and the best bid, in rupees and ticks. */
export function SpreadText({ spread, tickSize }: { readonly spread: Spread; readonly tickSize: number }) {
  // It moves with the book: in a box of its own, so the header is not laid out again (`TickBox`).
  const text = `${formatPrice(spread.abs, tickSize)} (${spread.ticks} ${spread.ticks === 1 ? 'tick' : 'ticks'})`;
  return (
    <span className="spread" data-testid="spread" data-ticks={spread.ticks}>
      <span className="spread__word">Spread </span>
      <TickBox text={text} />
    </span>
  );
}
