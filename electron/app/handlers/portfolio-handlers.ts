import { AppError } from '@shared/ipc/app-error';
import { orderRefusal } from '../../core/orders/order-rules';
import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/** `positions.list`, `holdings.list`, `funds.get`, `margins.order`, `margins.basket`: reads of the account. */
export function portfolioHandlers(
  active: ActiveCore,
): Pick<Handlers, 'positions.list' | 'holdings.list' | 'funds.get' | 'margins.order' | 'margins.basket'> {
  return {
    'positions.list': async () => [...(await active.current().readPositions())],
    'holdings.list': async () => [...(await active.current().broker.listHoldings())],
    'funds.get': async () => active.current().broker.getFunds(),
    'margins.order': async (order) => {
      const core = active.current();
      // The same check as placement (core/orders/order-rules.ts): no margin for an order that cannot be placed.
      const refusal = orderRefusal(order, await core.catalog.find(order.exchange, order.tradingsymbol));
      if (refusal) throw refusal;
      return core.broker.orderMargin(order);
    },
    'margins.basket': async ({ orders }) => {
      const core = active.current();
      // Each leg passes placement's check first; a refused leg is named by its place in the basket.
      for (const [n, order] of orders.entries()) {
        const refusal = orderRefusal(order, await core.catalog.find(order.exchange, order.tradingsymbol));
        if (refusal) throw legRefusal(refusal, n);
      }
      return core.broker.basketMargin(orders);
    },
  };
}

/** Leg `n`'s refusal, its fields named as the bridge input spells them (`orders.1.price`), its message saying which leg. */
function legRefusal(refusal: AppError, n: number): AppError {
  const { field, fields, ...rest } = refusal.info;
  return new AppError({
    ...rest,
    message: `Leg ${n + 1}: ${refusal.info.message}`,
    ...(field === undefined ? {} : { field: `orders.${n}.${field}` }),
    ...(fields === undefined ? {} : { fields: fields.map((f) => ({ ...f, field: `orders.${n}.${f.field}` })) }),
  });
}
