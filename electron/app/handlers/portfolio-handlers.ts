import { orderRefusal } from '../../core/orders/order-rules';
import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/** `positions.list`, `holdings.list`, `funds.get`, `margins.order`: reads of the account. */
export function portfolioHandlers(
  active: ActiveCore,
): Pick<Handlers, 'positions.list' | 'holdings.list' | 'funds.get' | 'margins.order'> {
  return {
    'positions.list': async () => [...(await active.current().broker.listPositions())],
    'holdings.list': async () => [...(await active.current().broker.listHoldings())],
    'funds.get': async () => active.current().broker.getFunds(),
    'margins.order': async (order) => {
      const core = active.current();
      // The same check as placement (core/orders/order-rules.ts): no margin for an order that cannot be placed.
      const refusal = orderRefusal(order, await core.catalog.find(order.exchange, order.tradingsymbol));
      if (refusal) throw refusal;
      return core.broker.orderMargin(order);
    },
  };
}
