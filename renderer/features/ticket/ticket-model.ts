import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest, OrderType, Product, TransactionType, Validity } from '@shared/domain/order';
import {
  allowedOrderTypes,
  allowedProducts,
  takesPrice,
  takesTrigger,
  validateOrder,
  type OrderField,
} from '@shared/trading/rules';
import { roundToTick } from '@shared/trading/money';
import { crossedStopProblem } from '@shared/trading/stop-trigger';
import type { IpcError } from '@shared/ipc/result';
import type { SessionInfo } from '@shared/domain/session';
import { refusalReason } from '../placements/placement-model';
import type { PriceFrom } from './price-prefill';
import type { BrokerOffers } from '../session/use-broker-offers';

/**
 * The order ticket's logic without React: draft → order request + errors per field.
 *
 * Every rule comes from `shared/trading/rules.ts` (the same module main and the paper broker
 * use), so the ticket can never accept what the broker would refuse, nor the other way round.
 * This module only adds what is specific to a form: parsing what was typed, and saying which
 * field a message belongs next to. A typed price is never changed behind the trader's back: an
 * off-tick one stays as typed, and the rules' message names the two nearest valid prices.
 */

/**
 * The fields of the ticket as the trader typed them (the ticket store holds one).
 *
 * Values are kept as typed (strings for numbers) so a half-typed "101." is not lost; this
 * module turns them into an order and judges it with the shared rules.
 */
export interface TicketDraft {
  readonly instrumentToken: number | null;
  readonly side: TransactionType;
  readonly quantity: string;
  readonly orderType: OrderType;
  readonly product: Product;
  /** True once the trader picked a product, so choosing an instrument no longer resets it. */
  readonly productChosen: boolean;
  readonly validity: Validity;
  readonly price: string;
  readonly triggerPrice: string;
  /** Where a price the ticket filled in came from; absent for a typed or clicked price (price-prefill.ts). */
  readonly priceFrom?: PriceFrom | undefined;
}

/** The draft a fresh ticket starts from. */
export const EMPTY_DRAFT: TicketDraft = {
  instrumentToken: null,
  side: 'BUY',
  quantity: '',
  orderType: 'MARKET',
  product: 'MIS',
  productChosen: false,
  validity: 'DAY',
  price: '',
  triggerPrice: '',
};

/** The ticket's fields that can carry an error (the rules' fields plus the symbol box). */
export type TicketField =
  | 'symbol'
  | Exclude<OrderField, 'exchange' | 'tradingsymbol'>
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

/** What the session says of the broker's own rules (from the broker registry), for the ticket. */
export type BrokerRules = Pick<SessionInfo, 'brokerLabel' | 'iocRefusedOn'> & Partial<BrokerOffers>;

/**
 * Judges the draft against the chosen instrument and the session's broker rules; with the live
 * `lastPrice`, a stop whose trigger that price has already reached is refused on its trigger
 * (`shared/trading/stop-trigger.ts`).
 */
export function evaluateTicket(
  draft: TicketDraft,
  instrument: Instrument | undefined,
  broker?: BrokerRules,
  lastPrice?: number,
): TicketEvaluation {
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
  // What the broker takes at all, before the exchanges' rules (its registry entry: docs/brokers.md §The broker registry).
  if (broker?.products && !broker.products.some((p) => p.product === draft.product))
    errors.product ??= `${broker.brokerLabel} takes no ${draft.product} orders: choose one it offers`;
  if (broker?.validities && !broker.validities.includes(draft.validity))
    errors.validity ??= `${broker.brokerLabel} takes no ${draft.validity} orders: use ${broker.validities.join(' or ')}`;
  for (const v of validateOrder(order, instrument)) {
    const field = RULE_TO_TICKET[v.field];
    errors[field] ??= v.message;
  }
  const crossed = crossedStopProblem(order, lastPrice);
  if (crossed !== null) errors.triggerPrice ??= crossed;
  // A broker's own rule on top of the exchanges' (Kite: docs/kite.md §Smaller rules).
  if (draft.validity === 'IOC' && broker?.iocRefusedOn?.includes(instrument.exchange))
    errors.validity ??= `${broker.brokerLabel} takes no IOC orders on ${instrument.exchange} through the API: use DAY`;
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
    // Until the ticket has put it on the live touch (price-prefill.ts).
    priceFrom: takesPrice(orderType) ? 'pending' : undefined,
    triggerPrice: '',
  };
}

/**
 * The draft change when the trader picks an order type. A priced type with no price typed yet
 * starts from the last price, on the tick, marked `pending` so the ticket moves it to the live
 * touch on the order's side (price-prefill.ts); a typed price is kept.
 */
export function orderTypeChosen(
  draft: TicketDraft,
  orderType: OrderType,
  instrument: Instrument | undefined,
  lastPrice: number | undefined,
): Partial<TicketDraft> {
  const ltp = lastPrice ?? instrument?.lastPrice ?? 0;
  if (instrument && takesPrice(orderType) && draft.priceFrom !== undefined) return { orderType, priceFrom: 'pending' };
  if (!instrument || !takesPrice(orderType) || draft.price.trim() !== '' || ltp <= 0) return { orderType };
  return { orderType, price: String(roundToTick(ltp, instrument.tickSize)), priceFrom: 'pending' };
}

/**
 * Main's refusal of a placement, next to the ticket fields it names (main reports them camelCase,
 * maybe `order.`-prefixed): every listed field, and the one the refusal leads with.
 */
export function refusalErrors(refusal: IpcError | null): TicketErrors {
  const errors: TicketErrors = {};
  for (const f of refusal?.fields ?? []) {
    const field = ticketFieldOf(f.field);
    if (field) errors[field] ??= refusalReason(f.message);
  }
  const lead = ticketFieldOf(refusal?.field);
  if (refusal && lead) errors[lead] ??= refusalReason(refusal.message);
  return errors;
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
  const known: readonly TicketField[] = [...Object.values(RULE_TO_TICKET), 'variety'];
  return known.find((k) => k === camel) ?? null;
}
