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
import type { IpcError } from '@shared/ipc/result';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderActionOutcome } from '@shared/domain/order-action';
import type { ActionAnswer } from './action-answer';
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

/** What the trader typed, as text, per field. */
interface ModifyTyped {
  readonly quantity: string;
  readonly orderType: OrderType;
  readonly validity: Validity;
  readonly price: string;
  readonly trigger: string;
}

/**
 * The dialog's form model: what the trader typed, read the ticket's way, the changes it makes to
 * the order, and what is wrong with it by the shared rules (quantity above what filled included).
 */
function modifyModel(order: Order, typed: ModifyTyped, instrument: Instrument | undefined) {
  const { quantity, orderType, price, trigger } = typed;
  const qty = quantity.trim() === '' ? Number.NaN : parseNumber(quantity);
  const typedPrice = takesPrice(orderType) ? parseNumber(price) : null;
  const typedTrigger = takesTrigger(orderType) ? parseNumber(trigger) : null;
  const changes = changedFields(order, {
    quantity: Number.isInteger(qty) ? qty : -1,
    orderType,
    validity: typed.validity,
    price: typedPrice === null || Number.isNaN(typedPrice) ? null : typedPrice,
    triggerPrice: typedTrigger === null || Number.isNaN(typedTrigger) ? null : typedTrigger,
  });

  const errors = new Map<ModifyField, string>();
  if (quantity.trim() === '') errors.set('quantity', 'Enter a quantity');
  else if (!Number.isInteger(qty)) errors.set('quantity', 'Quantity must be a whole number');
  if (typedPrice !== null && Number.isNaN(typedPrice) && price.trim() !== '') {
    errors.set('price', 'Price must be a number, e.g. 101.05');
  }
  if (typedTrigger !== null && Number.isNaN(typedTrigger) && trigger.trim() !== '') {
    errors.set('triggerPrice', 'Trigger price must be a number, e.g. 100.50');
  }
  // The same rules main applies before it sends the change.
  if (instrument) {
    for (const v of validateModification(order, changes, instrument)) {
      const f = ticketFieldOf(v.field);
      if (isModifyField(f) && !errors.has(f)) errors.set(f, v.message);
    }
  }
  return { changes, unchanged: Object.keys(changes).length === 0, blocked: errors.size > 0, errors };
}

/** Puts main's refusal next to the field(s) it names; true if it named one of the dialog's. */
function refusalOnFields(refusal: IpcError | null, errors: Map<ModifyField, string>): boolean {
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
  return placedNextToField;
}

/** The five fields; a price or trigger the order type does not take is shown empty and disabled. */
function ModifyFields(props: {
  readonly typed: ModifyTyped;
  readonly types: readonly OrderType[];
  readonly errors: ReadonlyMap<ModifyField, string>;
  readonly edit: (patch: Partial<ModifyTyped>) => void;
}) {
  const { typed, errors, edit } = props;
  const { orderType } = typed;
  return (
    <>
      <Field label="Quantity" error={errors.get('quantity')}>
        {(p) => (
          <input
            {...p}
            inputMode="numeric"
            value={typed.quantity}
            onChange={(e) => edit({ quantity: e.target.value })}
          />
        )}
      </Field>
      <Field label="Order type" error={errors.get('orderType')}>
        {(p) => (
          <select
            {...p}
            value={orderType}
            onChange={(e) => edit({ orderType: orderTypeOf(e.target.value, orderType) })}
          >
            {props.types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Validity" error={errors.get('validity')}>
        {(p) => (
          <select
            {...p}
            value={typed.validity}
            onChange={(e) => edit({ validity: e.target.value === 'IOC' ? 'IOC' : 'DAY' })}
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
            value={takesPrice(orderType) ? typed.price : ''}
            disabled={!takesPrice(orderType)}
            onChange={(e) => edit({ price: e.target.value })}
          />
        )}
      </Field>
      <Field label="Trigger price" error={errors.get('triggerPrice')}>
        {(p) => (
          <input
            {...p}
            inputMode="decimal"
            value={takesTrigger(orderType) ? typed.trigger : ''}
            disabled={!takesTrigger(orderType)}
            onChange={(e) => edit({ trigger: e.target.value })}
          />
        )}
      </Field>
    </>
  );
}

/**
 * What main answered: a risk refusal with "Modify anyway"; modified or not yet confirmed (then
 * what the broker shows once read back); or a refusal no field carries.
 */
function ModifyAnswer(props: {
  readonly refusal: IpcError | null;
  readonly answer: ActionAnswer | null;
  readonly placedNextToField: boolean;
  readonly onModifyAnyway: () => void;
}) {
  const { refusal, answer } = props;
  if (refusal && isRiskRefusal(refusal))
    return <RiskRefusal error={refusal} anyway="Modify anyway" onPlaceAnyway={props.onModifyAnyway} />;
  if (answer && answer.tone !== 'refused')
    return (
      <p
        role="status"
        className={answer.tone === 'unconfirmed' ? 'inline-warning' : 'muted'}
        data-testid="modify-answer"
        data-tone={answer.tone}
      >
        {answer.text}
      </p>
    );
  if (answer && !props.placedNextToField)
    return (
      <p role="alert" className="inline-error" data-testid="modify-answer" data-tone={answer.tone}>
        {answer.text}
      </p>
    );
  return null;
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
  const [typed, setTyped] = useState<ModifyTyped>({
    quantity: String(order.quantity),
    orderType: order.orderType,
    validity: order.validity,
    price: order.price ? String(order.price) : '',
    trigger: order.triggerPrice ? String(order.triggerPrice) : '',
  });
  const { changes, unchanged, blocked, errors } = modifyModel(order, typed, instrument);
  // Main's refusal, next to the field(s) it names; else one line under the form.
  const refusal = modify.error instanceof AppError ? modify.error.info : null;
  const placedNextToField = refusalOnFields(refusal, errors);

  const edit = (patch: Partial<ModifyTyped>): void => {
    if (modify.error) modify.reset(); // the refusal was about the old values
    setTyped((t) => ({ ...t, ...patch }));
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
        <ModifyFields
          typed={typed}
          types={instrument ? allowedOrderTypes(instrument) : [order.orderType]}
          errors={errors}
          edit={edit}
        />
        <ModifyAnswer
          refusal={refusal}
          answer={answer}
          placedNextToField={placedNextToField}
          onModifyAnyway={() =>
            modify.mutate({ orderId: order.orderId, changes, riskOverride: true }, { onSuccess: closeIfDone })
          }
        />
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
