import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/**
 * `orders.*`, `placements.*` and `trades.list`. Placement goes through the exactly-once order
 * service (rules, journal, three honest answers); the rest are direct broker calls with the
 * transport's retries.
 */
export function orderHandlers(
  active: ActiveCore,
): Pick<
  Handlers,
  | 'orders.place'
  | 'placements.list'
  | 'placements.placeAgain'
  | 'placements.discard'
  | 'placements.records'
  | 'orders.modify'
  | 'orders.cancel'
  | 'orders.action'
  | 'orders.list'
  | 'orders.sync'
  | 'orders.page'
  | 'orders.get'
  | 'orders.history'
  | 'trades.list'
> {
  return {
    // The order service answers placed / unconfirmed, or throws only when nothing was created
    // (docs/money-path.md, "Exactly-once orders").
    // The risk guard judges it before it is journaled; "Place anyway" waives soft limits only (docs/contract.md §Risk guard).
    'orders.place': async ({ order, requestId, clickedAt, riskOverride }) =>
      active.current().orders.place(order, {
        ...(requestId !== undefined ? { requestId } : {}),
        ...(clickedAt !== undefined ? { clickedAt } : {}),
        risk: riskOverride ? 'override' : 'check',
      }),
    'placements.list': async () => active.current().orders.placements(),
    'placements.placeAgain': async ({ clientOrderId, mayDuplicate, riskOverride }) =>
      active.current().orders.placeAgain(clientOrderId, {
        ...(mayDuplicate !== undefined ? { mayDuplicate } : {}),
        risk: riskOverride ? 'override' : 'check',
      }),
    'placements.discard': async ({ clientOrderId }) => active.current().orders.discard(clientOrderId),
    'placements.records': async () => ({ unreadable: active.current().orders.unreadableRecords() }),
    // Modified / cancelled, or not yet confirmed and read back; a failure only when nothing
    // changed (docs/contract.md §Modify and cancel answer honestly).
    'orders.modify': async ({ orderId, changes, riskOverride }) =>
      active.current().actions.modify(orderId, changes, riskOverride ? 'override' : 'check'),
    'orders.cancel': async ({ orderId }) => active.current().actions.cancel(orderId),
    'orders.action': async ({ orderId }) => active.current().actions.state(orderId),
    'orders.list': async (input) => [
      ...(await active.current().broker.listOrders(input?.status ? { status: input.status } : {})),
    ],
    'orders.sync': async (input) => {
      const { book, view } = active.current();
      // A page that holds nothing yet (a window opening, a reload) is answered from main's book
      // as held while it is fresh (the stream open since a read filled every gap): its first
      // screen waits for no broker read and no turn in the rate limiter, and its next poll syncs
      // as every poll does (docs/live-data.md §The first screen first).
      if (!(book.answersFull(input?.book, input?.since) && view.bookFresh())) await book.sync();
      return book.changesSince(input?.book, input?.since, input?.first);
    },
    // From main's book as held: the first page's sync brought it up to date, and what changed
    // since reaches the page as deltas (docs/live-data.md §The first screen first).
    'orders.page': async ({ book, after, limit }) => active.current().book.page(book, after, limit),
    'orders.get': async ({ orderId }) => active.current().broker.getOrder(orderId),
    'orders.history': async ({ orderId }) => {
      const core = active.current();
      const history = await core.broker.orderHistory(orderId);
      return { history: [...history], timeline: core.timeline.timeline(orderId, history) };
    },
    'trades.list': async () => [...(await active.current().broker.listTrades())],
  };
}
