import type { Order, OrderStatus } from '@shared/domain/order';
import type { Toast } from '../../state/toast-store';
import { formatPrice, formatQty } from '../../lib/format';

/**
 * Which order changes deserve a toast: reaching COMPLETE, REJECTED or CANCELLED. Pure, so
 * the same decision serves both sources (the `orders.changed` push and the polled book)
 * and a transition seen by both is announced once (the id includes the status).
 */
const NOTIFY: ReadonlySet<OrderStatus> = new Set(['COMPLETE', 'REJECTED', 'CANCELLED']);

/**
 * The toast for an order that moved from `before` (undefined: first sighting) to its status, if
 * any; its average price in the decimals of the instrument's tick when it is known.
 */
export function toastFor(order: Order, before: OrderStatus | undefined, tickSize?: number): Toast | null {
  if (before === order.status || !NOTIFY.has(order.status)) return null;
  const what = `${order.transactionType} ${formatQty(order.quantity)} ${order.tradingsymbol}`;
  const id = `${order.orderId}:${order.status}`;
  switch (order.status) {
    case 'COMPLETE':
      return {
        id,
        tone: 'good',
        title: `Complete: ${what}`,
        detail: `at ${formatPrice(order.averagePrice, tickSize)} · order ${order.orderId}`,
      };
    case 'REJECTED':
      return { id, tone: 'bad', title: `Rejected: ${what}`, detail: order.statusMessage ?? `order ${order.orderId}` };
    default:
      return { id, tone: 'neutral', title: `Cancelled: ${what}`, detail: `order ${order.orderId}` };
  }
}
