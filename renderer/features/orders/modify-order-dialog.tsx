import { useState, type FormEvent } from 'react';
import type { Order, OrderChanges, OrderType, Validity } from '../../../shared/domain/order';
import {
  allowedOrderTypes,
  allowedValidities,
  takesPrice,
  takesTrigger,
  validateOrder,
} from '../../../shared/trading/rules';
import { describeError } from '../../lib/describe-error';
import { BridgeError } from '../../lib/ipc-client';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { ticketFieldOf } from '../ticket/ticket-model';
import { useModifyOrder } from './queries';

/** A typed number, or NaN. */
function num(text: string): number {
  return /^\s*\d+(\.\d*)?\s*$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * Modify a working order: quantity, prices, order type, validity — judged by the same shared
 * rules as the ticket before anything is sent.
 */
export function ModifyOrderDialog({ order, onClose }: { readonly order: Order; readonly onClose: () => void }) {
  const instrument = useInstruments().byToken.get(order.instrumentToken);
  const modify = useModifyOrder();
  const [quantity, setQuantity] = useState(String(order.quantity));
  const [orderType, setOrderType] = useState<OrderType>(order.orderType);
  const [validity, setValidity] = useState<Validity>(order.validity);
  const [price, setPrice] = useState(order.price ? String(order.price) : '');
  const [trigger, setTrigger] = useState(order.triggerPrice ? String(order.triggerPrice) : '');

  const draft = {
    exchange: order.exchange,
    transactionType: order.transactionType,
    quantity: num(quantity),
    orderType,
    product: order.product,
    validity,
    price: takesPrice(orderType) ? num(price) : null,
    triggerPrice: takesTrigger(orderType) ? num(trigger) : null,
  };
  const errors = new Map<string, string>();
  if (instrument) for (const v of validateOrder(draft, instrument)) errors.set(v.field, v.message);
  const blocked = errors.size > 0;
  const brokerError = modify.error instanceof BridgeError ? modify.error.info : null;
  const brokerField = ticketFieldOf(brokerError?.field);
  if (brokerError && brokerField && !errors.has(brokerField)) errors.set(brokerField, brokerError.message);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (modify.isPending || blocked) return;
    const changes: OrderChanges = {
      quantity: draft.quantity,
      orderType,
      validity,
      price: draft.price,
      triggerPrice: draft.triggerPrice,
    };
    modify.mutate({ orderId: order.orderId, changes }, { onSuccess: onClose });
  };
  const err = (field: string) => {
    const m = errors.get(field);
    return m ? (
      <span className="field-error" id={`modify-${field}-error`}>
        {m}
      </span>
    ) : null;
  };
  const types = instrument ? allowedOrderTypes(instrument) : [order.orderType];

  return (
    <Dialog title={`Modify order ${order.orderId}`} onClose={onClose}>
      <form aria-label="Modify order" className="form" onSubmit={submit} noValidate>
        <p className="muted">
          {order.transactionType} {order.tradingsymbol} · {order.product}
        </p>
        <label>
          Quantity
          <input
            inputMode="numeric"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
            aria-invalid={errors.has('quantity')}
          />
        </label>
        {err('quantity')}
        <label>
          Order type
          <select value={orderType} onChange={(e) => setOrderType(orderTypeOf(e.target.value, orderType))}>
            {types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        {err('orderType')}
        <label>
          Validity
          <select value={validity} onChange={(e) => setValidity(e.target.value === 'IOC' ? 'IOC' : 'DAY')}>
            {(['DAY', 'IOC'] as const).map((v) => (
              <option key={v} disabled={!allowedValidities(orderType).includes(v)}>
                {v}
              </option>
            ))}
          </select>
        </label>
        {err('validity')}
        <label>
          Price
          <input
            inputMode="decimal"
            value={takesPrice(orderType) ? price : ''}
            disabled={!takesPrice(orderType)}
            onChange={(e) => setPrice(e.target.value)}
            aria-invalid={errors.has('price')}
          />
        </label>
        {err('price')}
        <label>
          Trigger price
          <input
            inputMode="decimal"
            value={takesTrigger(orderType) ? trigger : ''}
            disabled={!takesTrigger(orderType)}
            onChange={(e) => setTrigger(e.target.value)}
            aria-invalid={errors.has('triggerPrice')}
          />
        </label>
        {err('triggerPrice')}
        {brokerError && !brokerField ? (
          <p role="alert" className="inline-error">
            {describeError(modify.error)}
          </p>
        ) : null}
        <div className="form__buttons">
          <button type="submit" className="primary" disabled={modify.isPending || blocked}>
            {modify.isPending ? 'Modifying…' : 'Save changes'}
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Narrows a select's string to an order type (the options come from the rules, so it always is one). */
function orderTypeOf(value: string, fallback: OrderType): OrderType {
  const all: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
  return all.find((t) => t === value) ?? fallback;
}
