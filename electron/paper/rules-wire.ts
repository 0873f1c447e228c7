import type { OrderField, RuleViolation } from '@shared/trading/rules';
import { Problem } from './problem';

/**
 * The wire (snake_case) name of a rule's field: `validateOrder` speaks the app's camelCase,
 * but a 400's `errors[].field` must name what the client actually sent.
 */
const WIRE_FIELDS: Record<OrderField, string> = {
  exchange: 'exchange',
  tradingsymbol: 'tradingsymbol',
  transactionType: 'transaction_type',
  quantity: 'quantity',
  orderType: 'order_type',
  product: 'product',
  validity: 'validity',
  price: 'price',
  triggerPrice: 'trigger_price',
};

/** The wire name of a rule's field (`triggerPrice` → `trigger_price`). */
export function wireField(field: OrderField): string {
  return WIRE_FIELDS[field];
}

/**
 * The one 400 for broken trading rules, placing or modifying alike (docs/api.md §Errors): every
 * field in the wire spelling, `invalid_field` when any field is wrong by itself, else
 * `invalid_combination`. Null when nothing is broken.
 */
export function rulesProblem(violations: readonly RuleViolation[]): Problem | null {
  if (violations.length === 0) return null;
  const errors = violations.map((v) => ({ field: wireField(v.field), message: v.message }));
  const code = violations.some((v) => v.code === 'invalid_field') ? 'invalid_field' : 'invalid_combination';
  return new Problem(400, code, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
}
