import { validateOrder } from '@shared/trading/rules';
import { AppError } from '@shared/ipc/app-error';
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
      // The same rules as placement: a margin for an order that could not be placed is moot.
      const instrument = await core.catalog.find(order.exchange, order.tradingsymbol);
      if (!instrument) {
        throw new AppError({
          kind: 'bad_request',
          message: `${order.tradingsymbol} is not traded on ${order.exchange}`,
          field: 'tradingsymbol',
        });
      }
      const first = validateOrder(order, instrument)[0];
      if (first) throw new AppError({ kind: 'bad_request', message: first.message, field: first.field });
      return core.broker.orderMargin(order);
    },
  };
}
