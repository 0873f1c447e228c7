import type { Instrument } from '../../../shared/domain/instrument';
import type { OrderRequest, OrderType, Product } from '../../../shared/domain/order';
import {
  allowedOrderTypes,
  allowedProducts,
  takesPrice,
  takesTrigger,
  validateOrder,
  type OrderField,
} from '../../../shared/trading/rules';
import { roundToTick } from '../../../shared/trading/money';
import type { TicketDraft } from '../../state/ticket-store';

/**
 * The order ticket's logic without React: draft → order request + errors per field.
 *
 * Every rule comes from `shared/trading/rules.ts` (the same module main and the paper broker
 * use), so the ticket can never accept what the broker would refuse, nor the other way round.
 * This module only adds what is specific to a form: parsing what was typed, and saying which
 * field a message belongs next to. A typed price is never changed behind the trader's back: an
 * off-tick one stays as typed, and the rules' message names the two nearest valid prices.
 */

/** The ticket's fields that can carry an error (the rules' fields plus the symbol box). */
export type TicketField =
  | 'symbol'
  | 'transactionType'
  | 'quantity'
  | 'orderType'
  | 'product'
  | 'validity'
  | 'price'
  | 'triggerPrice'
  /** Regular or after-market: what a refusal for the market's hours names (docs/api.md §Sessions and the calendar). */
  | 'variety';

/** Errors to show, at most one per field. */
export type TicketErrors = Partial<Record<TicketField, string>>;

/** The outcome of judging a draft. */
export interface TicketEvaluation {
  /** The order to send, or null while anything is wrong. */
  readonly request: OrderRequest | null;
  readonly errors: TicketErrors;
  readonly priceEnabled: boolean;
  readonly triggerEnabled: boolean;
}

const RULE_TO_TICKET: Record<OrderField, TicketField> = {
  exchange: 'symbol',
  tradingsymbol: 'symbol',
  transactionType: 'transactionType',
  quantity: 'quantity',
  orderType: 'orderType',
  product: 'product',
  validity: 'validity',
  price: 'price',
  triggerPrice: 'triggerPrice',
};

/** A typed number, or NaN for anything that is not a plain decimal. */
export function parseNumber(text: string): number {
  const t = text.trim().replace(/,/g, '');
  return /^\d+(\.\d*)?$|^\.\d+$/.test(t) ? Number(t) : Number.NaN;
}

/** Judges the draft against the chosen instrument. */
export function evaluateTicket(draft: TicketDraft, instrument: Instrument | undefined): TicketEvaluation {
  const priceEnabled = takesPrice(draft.orderType);
  const triggerEnabled = takesTrigger(draft.orderType);
  const errors: TicketErrors = {};
  if (!instrument) {
    errors.symbol = 'Choose an instrument';
    return { request: null, errors, priceEnabled, triggerEnabled };
  }
  const quantity = draft.quantity.trim() === '' ? 0 : parseNumber(draft.quantity);
  const price = priceEnabled ? parseNumber(draft.price) : null;
  const triggerPrice = triggerEnabled ? parseNumber(draft.triggerPrice) : null;
  const order = {
    exchange: instrument.exchange,
    transactionType: draft.side,
    quantity: Number.isNaN(quantity) ? -1 : quantity,
    orderType: draft.orderType,
    product: draft.product,
    validity: draft.validity,
    price: price === null || Number.isNaN(price) ? null : price,
    triggerPrice: triggerPrice === null || Number.isNaN(triggerPrice) ? null : triggerPrice,
  };
  for (const v of validateOrder(order, instrument)) {
    const field = RULE_TO_TICKET[v.field];
    errors[field] ??= v.message;
  }
  if (draft.quantity.trim() === '') errors.quantity = 'Enter a quantity';
  if (priceEnabled && draft.price.trim() !== '' && Number.isNaN(price))
    errors.price = 'Price must be a number, e.g. 101.05';
  if (triggerEnabled && draft.triggerPrice.trim() !== '' && Number.isNaN(triggerPrice)) {
    errors.triggerPrice = 'Trigger price must be a number, e.g. 100.50';
  }
  const ok = Object.keys(errors).length === 0;
  const request: OrderRequest | null = ok
    ? {
        exchange: instrument.exchange,
        tradingsymbol: instrument.tradingsymbol,
        transactionType: draft.side,
        quantity: order.quantity,
        orderType: draft.orderType,
        product: draft.product,
        validity: draft.validity,
        price: order.price,
        triggerPrice: order.triggerPrice,
      }
    : null;
  return { request, errors, priceEnabled, triggerEnabled };
}

/**
 * The draft after the trader picks an instrument: one lot, and a product and order type that
 * instrument accepts unless the trader chose them on purpose (then a clash is shown, not
 * silently "fixed" behind their back).
 */
export function draftForInstrument(draft: TicketDraft, instrument: Instrument): TicketDraft {
  const products = allowedProducts(instrument);
  const defaultProduct: Product = products.includes('CNC') ? 'CNC' : products.includes('NRML') ? 'NRML' : 'MIS';
  const types = allowedOrderTypes(instrument);
  const orderType: OrderType = types.includes(draft.orderType) ? draft.orderType : 'SL';
  return {
    ...draft,
    instrumentToken: instrument.instrumentToken,
    quantity: String(instrument.lotSize),
    product: draft.productChosen ? draft.product : defaultProduct,
    orderType,
    price:
      takesPrice(orderType) && instrument.lastPrice > 0
        ? String(roundToTick(instrument.lastPrice, instrument.tickSize))
        : '',
    triggerPrice: '',
  };
}

/**
 * Maps a broker/main error's field (`order.triggerPrice`, `trigger_price`, `payload.order.price`)
 * to the ticket field it belongs next to, or null when it names none of them.
 */
export function ticketFieldOf(field: string | undefined): TicketField | null {
  if (!field) return null;
  const last = field.split('.').pop() ?? '';
  const camel = last.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  if (camel === 'tradingsymbol' || camel === 'exchange' || camel === 'instrumentToken') return 'symbol';
  const known: readonly TicketField[] = [
    'transactionType',
    'quantity',
    'orderType',
    'product',
    'validity',
    'price',
    'triggerPrice',
    'variety',
  ];
  return known.find((k) => k === camel) ?? null;
}
