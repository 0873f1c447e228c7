import type { OrderType, TransactionType } from '../domain/order';

/**
 * A stop whose trigger the last price has already reached (docs/contract.md §Trading rules, "A
 * stop must not be crossed"): a SELL stop at or above the last price, or a BUY stop at or below
 * it, would trigger the moment it reached the exchange — a market order in disguise. Zerodha
 * refuses such an order and such a change ("Trigger price for stoploss sell orders should be
 * lower than the last traded price"); the desk refuses it before sending, from the ticket, the
 * ladder and the chart, on every broker. The paper broker's Kite dialect refuses it as Kite does.
 */

/** What a crossed-stop check reads of an order (as it is, or as it would be after a change). */
export interface StopShape {
  readonly transactionType: TransactionType;
  readonly orderType: OrderType;
  readonly triggerPrice?: number | null;
}

const rupees = (v: number): string =>
  `₹${v.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;

/** True when `order` is a stop whose trigger `lastPrice` has already reached. Unknown prices are never "crossed". */
export function isStopCrossed(order: StopShape, lastPrice: number | null | undefined): boolean {
  if (order.orderType !== 'SL' && order.orderType !== 'SL-M') return false;
  const trigger = order.triggerPrice;
  if (trigger === null || trigger === undefined || !(trigger > 0)) return false;
  if (lastPrice === null || lastPrice === undefined || !(lastPrice > 0)) return false;
  return order.transactionType === 'SELL' ? trigger >= lastPrice : trigger <= lastPrice;
}

/**
 * Why `order` cannot go as a stop at `lastPrice`, in the trader's words, or null when it can
 * (or when either price is unknown: the broker then judges it).
 */
export function crossedStopProblem(order: StopShape, lastPrice: number | null | undefined): string | null {
  if (!isStopCrossed(order, lastPrice)) return null;
  const trigger = rupees(order.triggerPrice as number);
  const last = rupees(lastPrice as number);
  return order.transactionType === 'SELL'
    ? `A sell stop's trigger must be below the last price (${last}): at ${trigger} it would trigger at once`
    : `A buy stop's trigger must be above the last price (${last}): at ${trigger} it would trigger at once`;
}

/** Zerodha's own words for the refusal (the paper broker's Kite dialect answers with them). */
export function kiteCrossedStopMessage(side: TransactionType): string {
  return side === 'SELL'
    ? 'Trigger price for stoploss sell orders should be lower than the last traded price.'
    : 'Trigger price for stoploss buy orders should be higher than the last traded price.';
}
