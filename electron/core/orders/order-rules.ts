import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import type { AppError } from '@shared/ipc/app-error';
import { validateOrder, type RuleViolation } from '@shared/trading/rules';
import { brokerError } from '../../broker/broker-error';

/**
 * Main's one check of an order against the shared trading rules (docs/contract.md §Trading
 * rules), for placing it and for quoting its margin alike: a margin for an order that could not
 * be placed is moot, and the two must never disagree about which orders can.
 */

/** The refusal of an order whose rules fail, or null when it may be sent. */
export function orderRefusal(order: OrderRequest, instrument: Instrument | undefined): AppError | null {
  if (!instrument) {
    return brokerError('bad_request', `${order.tradingsymbol} is not traded on ${order.exchange}`, {
      field: 'tradingsymbol',
    });
  }
  return violationsRefusal(validateOrder(order, instrument));
}

/** One `bad_request` naming the first broken rule's field and listing every one, or null. */
export function violationsRefusal(violations: readonly RuleViolation[]): AppError | null {
  const first = violations[0];
  if (!first) return null;
  return brokerError('bad_request', first.message, {
    field: first.field,
    fields: violations.map((v) => ({ field: v.field, message: v.message })),
  });
}
