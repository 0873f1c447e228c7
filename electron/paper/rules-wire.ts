import type { OrderField } from '@shared/trading/rules';

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

export function wireField(field: OrderField): string {
  return WIRE_FIELDS[field];
}
