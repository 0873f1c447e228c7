import type { Gtt, GttRequest, GttType } from '@shared/domain/gtt';
import type { Instrument } from '@shared/domain/instrument';
import type { Product, TransactionType } from '@shared/domain/order';
import { validateGtt } from '@shared/trading/gtt-rules';
import { fromUnits, toUnits } from '@shared/trading/money';

/**
 * The GTT form's model (docs/gtt.md): what the trader typed (strings, kept as typed) → a GTT
 * request judged by the shared rules, so the form shows the same refusals main and the broker
 * would give, field by field. Pure: unit-tested without a screen.
 */

/** What the GTT form holds. For `single` only the first trigger and price are used. */
export interface GttForm {
  readonly type: GttType;
  readonly side: TransactionType;
  readonly quantity: string;
  readonly product: Product;
  /** Single: the trigger; OCO: the stop-loss trigger. */
  readonly trigger: string;
  readonly price: string;
  /** OCO only: the target trigger and its limit price. */
  readonly targetTrigger: string;
  readonly targetPrice: string;
}

/** The form's fields that can carry an error. */
export type GttFormField = 'quantity' | 'trigger' | 'price' | 'targetTrigger' | 'targetPrice' | 'product' | 'form';

/** A typed number, or NaN when it is not one (the rules then name the field). */
function num(text: string): number {
  const t = text.replace(/[,\s₹]/g, '');
  return t === '' ? Number.NaN : Number(t);
}

/** A rule's field (`triggerValues.1`, `legs.0.price`) → the form field showing it. */
export function formField(field: string): GttFormField {
  if (field === 'triggerValues.0') return 'trigger';
  if (field === 'triggerValues.1') return 'targetTrigger';
  if (/^legs\.1\.price$/.test(field)) return 'targetPrice';
  if (/^legs\.\d\.price$/.test(field)) return 'price';
  if (/^legs\.\d\.quantity$/.test(field)) return 'quantity';
  if (/^legs\.\d\.product$/.test(field)) return 'product';
  return 'form';
}

/** The form as a GTT request and its errors by form field (first message per field). */
export function evaluateGtt(
  form: GttForm,
  instrument: Instrument,
  lastPrice: number,
): { readonly request: GttRequest; readonly errors: Partial<Record<GttFormField, string>> } {
  const leg = (price: string) => ({
    transactionType: form.side,
    quantity: num(form.quantity),
    product: form.product,
    price: num(price),
  });
  const request: GttRequest = {
    type: form.type,
    exchange: instrument.exchange,
    tradingsymbol: instrument.tradingsymbol,
    triggerValues: form.type === 'oco' ? [num(form.trigger), num(form.targetTrigger)] : [num(form.trigger)],
    legs: form.type === 'oco' ? [leg(form.price), leg(form.targetPrice)] : [leg(form.price)],
  };
  const errors: Partial<Record<GttFormField, string>> = {};
  for (const v of validateGtt(request, instrument, lastPrice)) {
    const f = formField(v.field);
    errors[f] ??= v.message;
  }
  return { request, errors };
}

/** `price` moved by `pct` percent and put on the tick grid (down for a stop, up for a target). */
function offTick(price: number, pct: number, tickSize: number): number {
  const tick = toUnits(tickSize);
  const raw = toUnits(price) * (1 + pct / 100);
  return fromUnits((pct < 0 ? Math.floor(raw / tick) : Math.ceil(raw / tick)) * tick);
}

/**
 * The OCO a position row offers: exit the position (the opposite side, its open quantity) with a
 * stop-loss `pct`% below the last price and a target `pct`% above it (the other way round for a
 * short), limit prices at the triggers.
 */
export function ocoForPosition(
  position: { readonly quantity: number; readonly product: Product },
  lastPrice: number,
  tickSize: number,
  pct = 2,
): GttForm {
  const stop = offTick(lastPrice, -pct, tickSize);
  const target = offTick(lastPrice, pct, tickSize);
  return {
    type: 'oco',
    side: position.quantity > 0 ? 'SELL' : 'BUY',
    quantity: String(Math.abs(position.quantity)),
    product: position.product,
    trigger: String(stop),
    price: String(stop),
    targetTrigger: String(target),
    targetPrice: String(target),
  };
}

/** A GTT as the form edits it (the modify dialog). */
export function formOfGtt(g: Gtt): GttForm {
  const [first, second] = g.legs;
  return {
    type: g.type,
    side: first?.transactionType ?? 'SELL',
    quantity: String(first?.quantity ?? ''),
    product: first?.product ?? 'MIS',
    trigger: String(g.triggerValues[0] ?? ''),
    price: String(first?.price ?? ''),
    targetTrigger: String(g.triggerValues[1] ?? ''),
    targetPrice: String(second?.price ?? ''),
  };
}

/** "+1.33%": how far the price must move from `lastPrice` to reach `trigger`. */
export function distance(trigger: number, lastPrice: number | undefined): string {
  if (!lastPrice) return '–';
  const pct = ((trigger - lastPrice) / lastPrice) * 100;
  return `${pct > 0 ? '+' : ''}${pct.toFixed(2)}%`;
}
