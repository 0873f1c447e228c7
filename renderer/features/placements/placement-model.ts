import type { Order, OrderRequest } from '@shared/domain/order';
import { DECISION_STATES, OPEN_PLACEMENT_STATES, type Placement, type PlacementState } from '@shared/domain/placement';
import type { ErrorKind, IpcError } from '@shared/ipc/result';
import { formatPrice, formatQty } from '../../lib/format';
import { AppError } from '@shared/ipc/app-error';

/**
 * The unconfirmed-placements list in a trader's words, without React (docs/money-path.md,
 * "The money path on screen"): which intents are still open, what each one's state means, and
 * which of them the blotter pins above the broker's orders.
 */

/** True while an intent still needs the broker or the trader. */
export function isOpenPlacement(p: Placement): boolean {
  return OPEN_PLACEMENT_STATES.has(p.state);
}

/** True while an intent waits for the trader's "Place again" or "Discard". */
export function needsDecision(p: Placement): boolean {
  return DECISION_STATES.has(p.state);
}

/** The open intents, in the list's own order (newest first). */
export function openPlacements(placements: readonly Placement[] | undefined): Placement[] {
  return (placements ?? []).filter(isOpenPlacement);
}

/** The short marker of a state, as the blotter and the dialog show it (never a broker status word). */
export const PLACEMENT_MARK: Readonly<Record<PlacementState, string>> = {
  checking: 'Unconfirmed',
  needs_decision: 'Needs your decision',
  unverifiable: 'Cannot be verified',
  placed: 'Placed',
  not_placed: 'Not placed',
  discarded: 'Discarded',
};

/** What an intent's state means, in one sentence: main's own words when it gives them (it knows why). */
export function placementStateText(p: Placement): string {
  return p.detail.trim() || stateSentence(p);
}

/** The sentence for a state when main gave none. */
function stateSentence(p: Placement): string {
  switch (p.state) {
    case 'checking':
      return `Checking with the broker whether order ${p.clientOrderId} exists…`;
    case 'needs_decision':
      return 'The broker has no such order. Place it again, or discard it?';
    case 'unverifiable':
      return 'Placed on an earlier day than the broker still lists: it may exist, and placing it again may make a second order';
    case 'placed':
      return p.orderId ? `Placed as order ${p.orderId}` : 'Placed';
    case 'not_placed':
      return 'Not found at the broker — most likely not placed';
    case 'discarded':
      return 'Discarded — nothing was sent';
  }
}

/** "BUY 10 INFY LIMIT @ 1,500.00 trigger 1,495.00 · CNC": an order request on one line. */
export function describeOrderRequest(o: OrderRequest): string {
  const price = o.price ? ` @ ${formatPrice(o.price)}` : '';
  const trigger = o.triggerPrice ? ` trigger ${formatPrice(o.triggerPrice)}` : '';
  return `${o.transactionType} ${formatQty(o.quantity)} ${o.tradingsymbol} ${o.orderType}${price}${trigger} · ${o.product}`;
}

/** True when two requests would place the same order (same instrument, side, size, type, prices…). */
export function sameOrder(a: OrderRequest, b: OrderRequest): boolean {
  return (
    a.exchange === b.exchange &&
    a.tradingsymbol === b.tradingsymbol &&
    a.transactionType === b.transactionType &&
    a.quantity === b.quantity &&
    a.orderType === b.orderType &&
    a.product === b.product &&
    a.validity === b.validity &&
    (a.price ?? null) === (b.price ?? null) &&
    (a.triggerPrice ?? null) === (b.triggerPrice ?? null)
  );
}

/**
 * The placements the blotter pins above the broker's orders: every open intent, and a placed one
 * until its real order row has arrived (so the row is replaced, never missing for a poll).
 */
export function pinnedPlacements(
  placements: readonly Placement[] | undefined,
  orders: readonly Order[] | undefined,
): Placement[] {
  const list = placements ?? [];
  const placed = list.filter((p) => p.state === 'placed' && p.orderId !== null);
  // The blotter calls this on every orders update (10,000 rows): index them only when needed.
  const known = placed.length > 0 && orders ? new Set(orders.map((o) => o.orderId)) : null;
  return list.filter(
    (p) =>
      isOpenPlacement(p) || (known !== null && p.state === 'placed' && p.orderId !== null && !known.has(p.orderId)),
  );
}

/**
 * Failures of `orders.place` (and "Place again") after which nobody knows whether an order
 * exists: the link to main dropped with the call in flight, main's answer did not parse, or main
 * hit a bug. Every other failure is a refusal: main's contract is that a failed placement
 * created nothing.
 */
const UNCERTAIN: ReadonlySet<ErrorKind> = new Set(['disconnected', 'unexpected_shape', 'internal']);

/** True when a failed placement means nothing was created (so "Not placed" is the truth). */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && !UNCERTAIN.has(error.info.kind);
}

/**
 * A refusal in one line that starts "Not placed": main's own wording when it already says so
 * ("Not placed: …", "Not placed — the broker confirmed…"), else its reason after "Not placed: ".
 */
export function refusalText(error: IpcError): string {
  const message = error.message.trim();
  return /^not placed\b/i.test(message) ? message : `Not placed: ${message}`;
}

/** A refusal's reason as it reads next to the field it names (without a leading "Not placed:"). */
export function refusalReason(message: string): string {
  return message.replace(/^\s*not placed:\s*/i, '');
}

/**
 * Broker orders that carry the reference of an open intent: the broker's own order book (a poll,
 * or the stream's push) can show an order before main's lookups confirm it. The intent stays
 * "unconfirmed" until main says so, but the trader is told the broker already shows it, so the
 * pinned row and the real row never read as two orders.
 */
export function ordersByReference(
  placements: readonly Placement[],
  orders: readonly Order[] | undefined,
): ReadonlyMap<string, Order> {
  const out = new Map<string, Order>();
  const open = new Set(placements.filter(isOpenPlacement).map((p) => p.clientOrderId));
  if (open.size === 0 || !orders) return out;
  for (const o of orders) if (o.clientOrderId !== null && open.has(o.clientOrderId)) out.set(o.clientOrderId, o);
  return out;
}

/** What the trader reads about an open intent whose order the broker's book already shows. */
export function seenAtBrokerText(order: Order): string {
  return `The broker's order book shows it as order ${order.orderId} (${order.status}); confirming…`;
}
