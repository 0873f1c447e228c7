import { AppError } from '@shared/ipc/app-error';
import type { AlertBook } from '../alerts/alert-book';
import type { Handlers } from '../dispatcher';
import type { ActiveCore } from '../session/active-core';

/** `alerts.*`: price alerts, kept and evaluated in main (docs/contract.md §Price alerts). */
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
      active.current();
      return book.update(id, change);
    },
    'alerts.delete': async ({ id }) => {
      active.current();
      await book.remove(id);
      return { deleted: true as const };
    },
  };
}
