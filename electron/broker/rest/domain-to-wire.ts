import type { OrderChanges, OrderRequest } from '@shared/domain/order';
import type { WireOrderChanges, WireOrderRequest } from '../../wire/rest-schemas';
import type { PlaceOrderCommand } from '../broker';

/** Domain order → POST /orders body (docs/api.md §Orders, "POST /orders"); absent prices are left out, not sent as null. */
export function toWireOrderRequest(cmd: OrderRequest | PlaceOrderCommand): WireOrderRequest {
  const out: WireOrderRequest = {
    exchange: cmd.exchange,
    tradingsymbol: cmd.tradingsymbol,
    transaction_type: cmd.transactionType,
    quantity: cmd.quantity,
    order_type: cmd.orderType,
    product: cmd.product,
    validity: cmd.validity,
  };
  if (cmd.price != null) out.price = cmd.price;
  if (cmd.triggerPrice != null) out.trigger_price = cmd.triggerPrice;
  // Only an after-market order says so: a broker without varieties keeps receiving what it knows.
  if (cmd.variety === 'amo') out.variety = 'amo';
  if ('clientOrderId' in cmd) out.client_order_id = cmd.clientOrderId;
  return out;
}

/** Domain changes → PATCH body; only the fields the trader changed. */
export function toWireOrderChanges(changes: OrderChanges): WireOrderChanges {
  const out: WireOrderChanges = {};
  if (changes.quantity !== undefined) out.quantity = changes.quantity;
  if (changes.price !== undefined) out.price = changes.price;
  if (changes.triggerPrice !== undefined) out.trigger_price = changes.triggerPrice;
  if (changes.orderType !== undefined) out.order_type = changes.orderType;
  if (changes.validity !== undefined) out.validity = changes.validity;
  return out;
}
