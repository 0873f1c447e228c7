import { isWorking, type Order } from '../domain/order';

/**
 * Which of two reports of one order is the later (docs/live-data.md §The order book in main):
 * a push and a poll race each other, and a slow reply can carry an order as it was before the
 * push that already arrived. Positive when `a` is later than `b`, negative when earlier, 0 when
 * nothing tells them apart.
 *
 * In turn: the broker's `version` (grows with each modification) where both carry one; the
 * update time; then progress, which only grows — filled quantity, a final status over a working
 * one, cancelled quantity. Brokers stamp updates to the second, so two changes in one second
 * are told apart by progress alone.
 */
export function compareRecency(a: Order, b: Order): number {
  if (a.version !== undefined && b.version !== undefined && a.version !== b.version) return a.version - b.version;
  const ta = Date.parse(a.updatedAt);
  const tb = Date.parse(b.updatedAt);
  if (ta !== tb) return ta - tb;
  if (a.filledQuantity !== b.filledQuantity) return a.filledQuantity - b.filledQuantity;
  const fa = isWorking(a.status) ? 0 : 1;
  const fb = isWorking(b.status) ? 0 : 1;
  if (fa !== fb) return fa - fb;
  return a.cancelledQuantity - b.cancelledQuantity;
}

/** True when the two reports show a trader the same order (every field that can change is equal). */
export function sameOrderState(a: Order, b: Order): boolean {
  return (
    a.updatedAt === b.updatedAt &&
    a.status === b.status &&
    a.filledQuantity === b.filledQuantity &&
    a.pendingQuantity === b.pendingQuantity &&
    a.cancelledQuantity === b.cancelledQuantity &&
    a.quantity === b.quantity &&
    a.price === b.price &&
    a.triggerPrice === b.triggerPrice &&
    a.averagePrice === b.averagePrice &&
    a.orderType === b.orderType &&
    a.validity === b.validity &&
    a.statusMessage === b.statusMessage &&
    a.version === b.version
  );
}

/**
 * Whether `incoming` should replace `held`: it is later, or nothing tells them apart and it
 * differs (then the one that arrived last wins). An earlier report never replaces a later one.
 */
export function supersedes(incoming: Order, held: Order): boolean {
  const c = compareRecency(incoming, held);
  if (c !== 0) return c > 0;
  return !sameOrderState(incoming, held);
}
