import { useState, type FormEvent } from 'react';
import type { Order, OrderChanges, OrderType, Validity } from '@shared/domain/order';
import {
  allowedOrderTypes,
  allowedValidities,
  takesPrice,
  takesTrigger,
  validateModification,
} from '@shared/trading/rules';
import { isRiskRefusal, RiskRefusal } from '../safety/risk-override';
import { formatQty } from '../../lib/format';
import { AppError } from '@shared/ipc/app-error';
import type { OrderActionOutcome } from '@shared/domain/order-action';
import { useActionAnswer } from './use-action-answer';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { Field } from '../layout/field';
import { parseNumber, ticketFieldOf } from '../ticket/ticket-model';
import { useModifyOrder } from './queries';

/** The dialog's fields that can carry an error. */
type ModifyField = 'quantity' | 'orderType' | 'validity' | 'price' | 'triggerPrice';

/** A price as the broker reports it (0 or null: none), for comparing with what the trader typed. */
function priceOf(value: number | null): number | null {
  return value ? value : null;
}

/**
 * Only what the trader changed: the broker keeps every field not sent, so a stale value shown in
 * the dialog can never overwrite a newer one (docs/api.md §Orders, "PATCH /orders/{order_id}"). A price
 * the new order type does not take is not sent either; the broker drops it.
 */
export function changedFields(
  order: Order,
  next: {
    readonly quantity: number;
    readonly orderType: OrderType;
    readonly validity: Validity;
    readonly price: number | null;
    readonly triggerPrice: number | null;
  },
): OrderChanges {
  const changes: OrderChanges = {};
  if (next.quantity !== order.quantity) changes.quantity = next.quantity;
  if (next.orderType !== order.orderType) changes.orderType = next.orderType;
  if (next.validity !== order.validity) changes.validity = next.validity;
  if (takesPrice(next.orderType) && next.price !== priceOf(order.price)) changes.price = next.price;
  if (takesTrigger(next.orderType) && next.triggerPrice !== priceOf(order.triggerPrice)) {
    changes.triggerPrice = next.triggerPrice;
  }
  return changes;
}

/**
 * Modify a working order: quantity, prices, order type, validity — judged by the same shared
 * rules as the ticket, with numbers read the same way ("1,234.50"), before anything is sent; the
 * quantity can never go down to what has already filled. Only the fields the trader changed are
 * sent, and main's refusal shows next to the field it names.
 */
export function ModifyOrderDialog({ order, onClose }: { readonly order: Order; readonly onClose: () => void }) {
  const instrument = useInstruments().byToken.get(order.instrumentToken);
  const modify = useModifyOrder();
  const [quantity, setQuantity] = useState(String(order.quantity));
  const [orderType, setOrderType] = useState<OrderType>(order.orderType);
  const [validity, setValidity] = useState<Validity>(order.validity);
  const [price, setPrice] = useState(order.price ? String(order.price) : '');
  const [trigger, setTrigger] = useState(order.triggerPrice ? String(order.triggerPrice) : '');

  const qty = quantity.trim() === '' ? Number.NaN : parseNumber(quantity);
  const typedPrice = takesPrice(orderType) ? parseNumber(price) : null;
  const typedTrigger = takesTrigger(orderType) ? parseNumber(trigger) : null;
  const next = {
    quantity: Number.isInteger(qty) ? qty : -1,
    orderType,
    validity,
    price: typedPrice === null || Number.isNaN(typedPrice) ? null : typedPrice,
    triggerPrice: typedTrigger === null || Number.isNaN(typedTrigger) ? null : typedTrigger,
  };

  const changes = changedFields(order, next);
  const unchanged = Object.keys(changes).length === 0;

  const errors = new Map<ModifyField, string>();
  if (quantity.trim() === '') errors.set('quantity', 'Enter a quantity');
  else if (!Number.isInteger(qty)) errors.set('quantity', 'Quantity must be a whole number');
  if (typedPrice !== null && Number.isNaN(typedPrice) && price.trim() !== '') {
    errors.set('price', 'Price must be a number, e.g. 101.05');
  }
  if (typedTrigger !== null && Number.isNaN(typedTrigger) && trigger.trim() !== '') {
    errors.set('triggerPrice', 'Trigger price must be a number, e.g. 100.50');
  }
  // The same rules main applies before it sends the change (quantity above what filled included).
  if (instrument) {
    for (const v of validateModification(order, changes, instrument)) {
      const f = ticketFieldOf(v.field);
      if (isModifyField(f) && !errors.has(f)) errors.set(f, v.message);
    }
  }
  const blocked = errors.size > 0;

  // Main's refusal, next to the field(s) it names; else one line under the form.
  const refusal = modify.error instanceof AppError ? modify.error.info : null;
  const refusalFields = [
    ...(refusal?.field ? [{ field: refusal.field, message: refusal.message }] : []),
    ...(refusal?.fields ?? []),
  ];
  let placedNextToField = false;
  for (const { field, message } of refusalFields) {
    const f = ticketFieldOf(field);
    if (!isModifyField(f)) continue;
    placedNextToField = true;
    if (!errors.has(f)) errors.set(f, message);
  }

  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T): void => {
      if (modify.error) modify.reset(); // the refusal was about the old values
      set(v);
    };
  // Modified: the dialog closes. Not yet confirmed: it stays, saying so, while main reads the
  // order back, and then says what the broker shows (docs/contract.md §Modify and cancel answer honestly).
  const answer = useActionAnswer('modify', modify);
  const closeIfDone = (o: OrderActionOutcome): void => {
    if (o.state === 'done') onClose();
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (modify.isPending || blocked || unchanged) return;
    modify.mutate({ orderId: order.orderId, changes }, { onSuccess: closeIfDone });
  };
  const types = instrument ? allowedOrderTypes(instrument) : [order.orderType];

  return (
    <Dialog title={`Modify order ${order.orderId}`} onClose={onClose}>
      <form aria-label="Modify order" className="form" onSubmit={submit} noValidate>
        <p className="muted">
          {order.transactionType} {order.tradingsymbol} · {order.product}
        </p>
        <p className="muted" data-testid="modify-fill">
          Filled {formatQty(order.filledQuantity)} of {formatQty(order.quantity)} · pending{' '}
          {formatQty(order.pendingQuantity)}
        </p>
        <Field label="Quantity" error={errors.get('quantity')}>
          {(p) => (
            <input {...p} inputMode="numeric" value={quantity} onChange={(e) => edited(setQuantity)(e.target.value)} />
          )}
        </Field>
        <Field label="Order type" error={errors.get('orderType')}>
          {(p) => (
            <select
              {...p}
              value={orderType}
              onChange={(e) => edited(setOrderType)(orderTypeOf(e.target.value, orderType))}
            >
              {types.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Validity" error={errors.get('validity')}>
          {(p) => (
            <select
              {...p}
              value={validity}
              onChange={(e) => edited(setValidity)(e.target.value === 'IOC' ? 'IOC' : 'DAY')}
            >
              {(['DAY', 'IOC'] as const).map((v) => (
                <option key={v} disabled={!allowedValidities(orderType).includes(v)}>
                  {v}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Price" error={errors.get('price')}>
          {(p) => (
            <input
              {...p}
              inputMode="decimal"
              value={takesPrice(orderType) ? price : ''}
              disabled={!takesPrice(orderType)}
              onChange={(e) => edited(setPrice)(e.target.value)}
            />
          )}
        </Field>
        <Field label="Trigger price" error={errors.get('triggerPrice')}>
          {(p) => (
            <input
              {...p}
              inputMode="decimal"
              value={takesTrigger(orderType) ? trigger : ''}
              disabled={!takesTrigger(orderType)}
              onChange={(e) => edited(setTrigger)(e.target.value)}
            />
          )}
        </Field>
        {refusal && isRiskRefusal(refusal) ? (
          <RiskRefusal
            error={refusal}
            anyway="Modify anyway"
            onPlaceAnyway={() =>
              modify.mutate({ orderId: order.orderId, changes, riskOverride: true }, { onSuccess: closeIfDone })
            }
          />
        ) : answer && answer.tone !== 'refused' ? (
          <p
            role="status"
            className={answer.tone === 'unconfirmed' ? 'inline-warning' : 'muted'}
            data-testid="modify-answer"
            data-tone={answer.tone}
          >
            {answer.text}
          </p>
        ) : answer && !placedNextToField ? (
          <p role="alert" className="inline-error" data-testid="modify-answer" data-tone={answer.tone}>
            {answer.text}
          </p>
        ) : null}
        <div className="form__buttons">
          <button type="submit" className="primary" disabled={modify.isPending || blocked || unchanged}>
            {modify.isPending ? 'Modifying…' : 'Save changes'}
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
          {unchanged && !blocked ? <span className="muted small">Nothing changed yet</span> : null}
        </div>
      </form>
    </Dialog>
  );
}

function isModifyField(f: string | null): f is ModifyField {
  return f === 'quantity' || f === 'orderType' || f === 'validity' || f === 'price' || f === 'triggerPrice';
}

/** Narrows a select's string to an order type (the options come from the rules, so it always is one). */
function orderTypeOf(value: string, fallback: OrderType): OrderType {
  const all: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
  return all.find((t) => t === value) ?? fallback;
}
