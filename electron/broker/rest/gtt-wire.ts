import type { Gtt, GttAck, GttChanges, GttLeg } from '@shared/domain/gtt';
import type { WireGtt, WireGttAck, WireGttChanges, WireGttLegRequest, WireGttRequest } from '../../wire/rest-schemas';
import type { PlaceGttCommand } from '../broker';

/**
 * GTTs between the app's types and the spellings of docs/api.md §GTT; the only place they
 * meet. A 400's fields come back as `orders.0.price`; the app names legs `legs.0.price`.
 */

function wireLeg(l: GttLeg): WireGttLegRequest {
  return {
    transaction_type: l.transactionType,
    quantity: l.quantity,
    product: l.product,
    order_type: 'LIMIT',
    price: l.price,
  };
}

/** A GTT to create → the POST /gtt body. */
export function toWireGttRequest(c: PlaceGttCommand): WireGttRequest {
  return {
    type: c.type,
    exchange: c.exchange,
    tradingsymbol: c.tradingsymbol,
    trigger_values: [...c.triggerValues],
    orders: c.legs.map(wireLeg),
    client_gtt_id: c.clientGttId,
  };
}

/** New trigger values and legs → the PATCH /gtt/{id} body. */
export function toWireGttChanges(c: GttChanges): WireGttChanges {
  return { trigger_values: [...c.triggerValues], orders: c.legs.map(wireLeg) };
}

/** A wire GTT → the app's. */
export function toGtt(w: WireGtt): Gtt {
  return {
    gttId: w.gtt_id,
    clientGttId: w.client_gtt_id,
    type: w.type,
    status: w.status,
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    triggerValues: w.trigger_values,
    lastPriceAtCreation: w.last_price,
    legs: w.orders.map((o) => ({
      transactionType: o.transaction_type,
      quantity: o.quantity,
      product: o.product,
      price: o.price,
      orderId: o.order_id,
      orderStatus: o.order_status,
    })),
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    expiresAt: w.expires_at,
    statusMessage: w.status_message,
  };
}

/** A wire acknowledgement → the app's. */
export function toGttAck(w: WireGttAck): GttAck {
  return { gttId: w.gtt_id, status: w.status };
}

/** `orders.0.price` (camelCased by the classifier: `orders.0.price`) → the app's `legs.0.price`. */
export function appGttField(field: string): string {
  return field.replace(/^orders(?=\.|$)/, 'legs');
}
