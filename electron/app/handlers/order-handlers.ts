import { AppError } from '../app-error';
import type { Handlers } from '../../main/ipc/dispatcher';
import type { ActiveCore } from '../session/active-core';

/**
 * `orders.*` and `trades.list`. Placement goes through the exactly-once order service (rules,
 * journal, resolution); the rest are direct broker calls with the transport's retries.
 */
export function orderHandlers(
  active: ActiveCore,
): Pick<
  Handlers,
  | 'orders.place'
  | 'placements.list'
  | 'placements.placeAgain'
  | 'placements.discard'
  | 'orders.modify'
  | 'orders.cancel'
  | 'orders.list'
  | 'orders.get'
  | 'orders.history'
  | 'trades.list'
> {
  return {
    'orders.place': async ({ order, clickedAt }) => {
      const { ack, recovered } = await active.current().orders.place(order, clickedAt);
      return {
        state: 'placed',
        orderId: ack.orderId,
        clientOrderId: ack.clientOrderId ?? '',
        status: ack.status,
        recovered,
      };
    },
    // Placeholders until the order service keeps the unconfirmed list (docs/architecture.md).
    'placements.list': async () => [],
    'placements.placeAgain': async () => {
      throw new AppError({ kind: 'not_found', message: 'No such unconfirmed placement' });
    },
    'placements.discard': async () => {
      throw new AppError({ kind: 'not_found', message: 'No such unconfirmed placement' });
    },
    'orders.modify': async ({ orderId, changes }) => active.current().broker.modifyOrder(orderId, changes),
    'orders.cancel': async ({ orderId }) => active.current().broker.cancelOrder(orderId),
    'orders.list': async (input) => [
      ...(await active.current().broker.listOrders(input?.status ? { status: input.status } : {})),
    ],
    'orders.get': async ({ orderId }) => active.current().broker.getOrder(orderId),
    'orders.history': async ({ orderId }) => {
      const core = active.current();
      const history = await core.broker.orderHistory(orderId);
      return { history: [...history], timeline: core.timeline.timeline(orderId, history) };
    },
    'trades.list': async () => [...(await active.current().broker.listTrades())],
  };
}
