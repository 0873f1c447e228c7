import type { OrderRequest } from '@shared/domain/order';
import { AppError } from '@shared/ipc/app-error';
import { validateOrder } from '@shared/trading/rules';
import type { AlertBook } from '../alerts/alert-book';
import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/**
 * The trading rules of each order an alert carries, checked when it is made or edited, naming
 * the leg and its field (`orders.2.quantity`). The risk guard is not asked now: it judges the
 * orders when the alert fires (docs/contract.md §Alerts that place orders).
 */
async function checkOrders(active: ActiveCore, orders: readonly OrderRequest[] | undefined): Promise<void> {
  const { catalog } = active.current();
  for (const [n, order] of (orders ?? []).entries()) {
    const spec = await catalog.find(order.exchange, order.tradingsymbol);
    if (!spec) {
      throw new AppError({
        kind: 'bad_request',
        message: `Order ${n + 1}: ${order.tradingsymbol} is not traded on ${order.exchange}`,
        field: `orders.${n}.tradingsymbol`,
      });
    }
    const [first] = validateOrder(order, spec);
    if (first) {
      throw new AppError({
        kind: 'bad_request',
        message: `Order ${n + 1}: ${first.message}`,
        field: `orders.${n}.${first.field}`,
      });
    }
  }
}

/** `alerts.*`: alerts, kept and evaluated in main (docs/contract.md §Price alerts). */
export function alertHandlers(
  active: ActiveCore,
  book: AlertBook,
): Pick<Handlers, 'alerts.list' | 'alerts.create' | 'alerts.update' | 'alerts.delete'> {
  return {
    'alerts.list': async () => {
      active.current();
      return book.list();
    },
    'alerts.create': async (draft) => {
      await checkOrders(active, draft.orders);
      // An MTM alert watches the account, not an instrument.
      if (draft.instrumentToken === undefined) return book.create(draft, null);
      const [quote] = await active.current().broker.getQuotes([draft.instrumentToken]);
      if (!quote) {
        throw new AppError({
          kind: 'bad_request',
          message: 'The broker does not quote this instrument',
          field: 'instrumentToken',
        });
      }
      return book.create(draft, quote);
    },
    'alerts.update': async ({ id, change }) => {
      await checkOrders(active, change.orders);
      return book.update(id, change);
    },
    'alerts.delete': async ({ id }) => {
      active.current();
      await book.remove(id);
      return { deleted: true as const };
    },
  };
}
