import type { Exchange, Instrument, InstrumentType } from '../domain/instrument';
import type { OrderChanges, OrderType, Product, TransactionType, Validity } from '../domain/order';
import { isOnTick, priceDecimals, ticksAround, toUnits } from './money';

/**
 * The trading rules (docs/api.md, "POST /orders"), in one place.
 *
 * The order ticket applies them as the trader types, the main process before it sends, and the
 * paper broker authoritatively (400 naming the field). All three call `validateOrder`, so a
 * rule cannot drift between them.
 */

/** The fields of an order the trader decides, in the app's (camelCase) spelling: what a rule can blame. */
export const ORDER_FIELDS = [
  'exchange',
  'tradingsymbol',
  'transactionType',
  'quantity',
  'orderType',
  'product',
  'validity',
  'price',
  'triggerPrice',
] as const;

/** The order fields a rule can blame. */
export type OrderField = (typeof ORDER_FIELDS)[number];

/** `invalid_field`: one field is wrong by itself; `invalid_combination`: it clashes with another. */
export type RuleCode = 'invalid_field' | 'invalid_combination';

/** One broken rule, in words a trader understands. */
export interface RuleViolation {
  readonly field: OrderField;
  readonly code: RuleCode;
  readonly message: string;
}

/** The parts of an instrument the rules need. */
export type InstrumentSpec = Pick<
  Instrument,
  'exchange' | 'tradingsymbol' | 'instrumentType' | 'lotSize' | 'tickSize' | 'freezeQuantity'
>;

/** The parts of an order the rules judge. Prices may be absent (null/undefined). */
export interface OrderDraft {
  readonly exchange: Exchange;
  readonly transactionType: TransactionType;
  readonly quantity: number;
  readonly orderType: OrderType;
  readonly product: Product;
  readonly validity: Validity;
  readonly price?: number | null;
  readonly triggerPrice?: number | null;
}

const EQUITY_CASH: ReadonlySet<Exchange> = new Set(['NSE', 'BSE']);
const DERIVATIVES: ReadonlySet<Exchange> = new Set(['NFO', 'BFO', 'MCX', 'CDS']);
const OPTIONS: ReadonlySet<InstrumentType> = new Set(['CE', 'PE']);

const PRODUCT_WORDS: Record<Product, string> = {
  MIS: 'MIS (intraday)',
  CNC: 'CNC (delivery)',
  NRML: 'NRML (carry-forward)',
};

/** True for an absent price: MARKET and SL-M orders carry none (0 is how some brokers say it). */
function isAbsent(price: number | null | undefined): boolean {
  return price === null || price === undefined || price === 0;
}

/** Products allowed on an instrument: CNC only on NSE/BSE equity, NRML only on derivatives. */
export function allowedProducts(instrument: Pick<InstrumentSpec, 'exchange' | 'instrumentType'>): readonly Product[] {
  const out: Product[] = ['MIS'];
  if (EQUITY_CASH.has(instrument.exchange) && instrument.instrumentType === 'EQ') out.push('CNC');
  if (DERIVATIVES.has(instrument.exchange)) out.push('NRML');
  return out;
}

/** Order types allowed on an instrument: SL-M is not accepted on options. */
export function allowedOrderTypes(instrument: Pick<InstrumentSpec, 'instrumentType'>): readonly OrderType[] {
  return OPTIONS.has(instrument.instrumentType) ? ['MARKET', 'LIMIT', 'SL'] : ['MARKET', 'LIMIT', 'SL', 'SL-M'];
}

/** Validities allowed for an order type: IOC only with MARKET and LIMIT. */
export function allowedValidities(orderType: OrderType): readonly Validity[] {
  return orderType === 'MARKET' || orderType === 'LIMIT' ? ['DAY', 'IOC'] : ['DAY'];
}

/** Whether the order type takes a limit price (LIMIT, SL). */
export function takesPrice(orderType: OrderType): boolean {
  return orderType === 'LIMIT' || orderType === 'SL';
}

/** Whether the order type takes a trigger price (SL, SL-M). */
export function takesTrigger(orderType: OrderType): boolean {
  return orderType === 'SL' || orderType === 'SL-M';
}

/**
 * Moves a quantity by whole lots, never below one lot nor above the freeze limit.
 *
 * The ticket's arrow keys and spinner step by this; `steps` may be negative.
 */
export function stepQuantity(
  quantity: number,
  steps: number,
  spec: Pick<InstrumentSpec, 'lotSize' | 'freezeQuantity'>,
): number {
  const lots = Math.max(1, Math.round(quantity / spec.lotSize) + steps);
  const maxLots = Math.max(1, Math.floor(spec.freezeQuantity / spec.lotSize));
  return Math.min(lots, maxLots) * spec.lotSize;
}

function checkQuantity(order: OrderDraft, spec: InstrumentSpec, out: RuleViolation[]): void {
  const q = order.quantity;
  if (!Number.isInteger(q) || q <= 0) {
    out.push({ field: 'quantity', code: 'invalid_field', message: 'Quantity must be a whole number above zero' });
  } else if (q % spec.lotSize !== 0) {
    out.push({
      field: 'quantity',
      code: 'invalid_field',
      message: `Quantity must be a multiple of the lot size (${spec.lotSize})`,
    });
  } else if (q > spec.freezeQuantity) {
    out.push({
      field: 'quantity',
      code: 'invalid_field',
      message: `Quantity is above the freeze limit of ${spec.freezeQuantity} for ${spec.tradingsymbol}`,
    });
  }
}

function checkProduct(order: OrderDraft, spec: InstrumentSpec, out: RuleViolation[]): void {
  if (allowedProducts(spec).includes(order.product)) return;
  const why =
    order.product === 'CNC'
      ? `${PRODUCT_WORDS.CNC} is only for NSE/BSE equity, not ${spec.exchange} ${spec.instrumentType}`
      : `${PRODUCT_WORDS.NRML} is only for derivatives (NFO, BFO, MCX, CDS), not ${spec.exchange} equity`;
  out.push({
    field: 'product',
    code: 'invalid_combination',
    message: `${why}; use ${allowedProducts(spec).join(' or ')}`,
  });
}

function checkOrderType(order: OrderDraft, spec: InstrumentSpec, out: RuleViolation[]): void {
  if (!allowedOrderTypes(spec).includes(order.orderType)) {
    out.push({
      field: 'orderType',
      code: 'invalid_combination',
      message: 'SL-M is not accepted on options; use SL with a limit price',
    });
  }
  if (!allowedValidities(order.orderType).includes(order.validity)) {
    out.push({
      field: 'validity',
      code: 'invalid_combination',
      message: `IOC is only for MARKET and LIMIT orders, not ${order.orderType}; use DAY`,
    });
  }
}

/** ₹1,01,234.51 in Indian grouping with at least two decimals and every digit the value has. */
function rupeesAsTyped(value: number): string {
  return `₹${value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 12 })}`;
}

/** A valid price in the tick's own decimals (₹101.10, ₹83.2550). */
function rupeesOnTick(value: number, tickSize: number): string {
  const decimals = priceDecimals(tickSize);
  return `₹${value.toLocaleString('en-IN', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}

/**
 * The highest price any rule accepts, ₹100 crore: far above any contract listed in India, and
 * far inside what integer price units count exactly (₹9·10^11, docs/api.md §Numbers and money
 * units), so a price like 1e308 is refused in one short sentence instead of a 400-digit figure.
 */
export const MAX_PRICE = 1_00_00_00_000;

/**
 * What is wrong with a price that is present and above zero, or null when it is valid.
 *
 * Never rounded for the trader (docs/api.md §Numbers and money units): a price under one tick
 * (1e-9 would be stored as ₹0.00) is refused, and an off-tick one is refused naming the two
 * nearest valid prices, so the trader chooses which side of their intent to be on. Above
 * `MAX_PRICE` it is refused as such. GTT trigger values are judged by it too
 * (`shared/trading/gtt-rules.ts`).
 */
export function tickProblem(label: string, value: number, tickSize: number): string | null {
  const tick = `₹${tickSize.toLocaleString('en-IN', { maximumFractionDigits: 4 })}`;
  if (!(value <= MAX_PRICE)) return `${label} must be at most ₹${MAX_PRICE.toLocaleString('en-IN')}`;
  if (toUnits(value) < toUnits(tickSize)) return `${label} must be at least one tick (${tick})`;
  if (isOnTick(value, tickSize)) return null;
  const [below, above] = ticksAround(value, tickSize);
  return `${rupeesAsTyped(value)} is off the ${tick} tick — use ${rupeesOnTick(below, tickSize)} or ${rupeesOnTick(above, tickSize)}`;
}

function checkPrices(order: OrderDraft, spec: InstrumentSpec, out: RuleViolation[]): void {
  const { price, triggerPrice, orderType } = order;
  if (takesPrice(orderType)) {
    const problem =
      isAbsent(price) || (price as number) < 0 || !Number.isFinite(price)
        ? `A ${orderType} order needs a price above zero`
        : tickProblem('Price', price as number, spec.tickSize);
    if (problem !== null) out.push({ field: 'price', code: 'invalid_field', message: problem });
  } else if (!isAbsent(price)) {
    out.push({ field: 'price', code: 'invalid_combination', message: `A ${orderType} order takes no price; clear it` });
  }

  if (takesTrigger(orderType)) {
    const problem =
      isAbsent(triggerPrice) || (triggerPrice as number) < 0 || !Number.isFinite(triggerPrice)
        ? `A ${orderType} order needs a trigger price above zero`
        : tickProblem('Trigger price', triggerPrice as number, spec.tickSize);
    if (problem !== null) {
      out.push({ field: 'triggerPrice', code: 'invalid_field', message: problem });
    } else if (orderType === 'SL' && !isAbsent(price) && isOnTick(price as number, spec.tickSize)) {
      const t = toUnits(triggerPrice as number);
      const p = toUnits(price as number);
      if (order.transactionType === 'BUY' && t > p) {
        out.push({
          field: 'triggerPrice',
          code: 'invalid_combination',
          message: 'A buy stop triggers at or below its limit price',
        });
      } else if (order.transactionType === 'SELL' && t < p) {
        out.push({
          field: 'triggerPrice',
          code: 'invalid_combination',
          message: 'A sell stop triggers at or above its limit price',
        });
      }
    }
  } else if (!isAbsent(triggerPrice)) {
    out.push({
      field: 'triggerPrice',
      code: 'invalid_combination',
      message: `A ${orderType} order takes no trigger price; clear it`,
    });
  }
}

/**
 * Every rule the order breaks on this instrument, at most one per field, in field order.
 *
 * An empty array means the order may be sent. The instrument must be the one the order names;
 * an exchange mismatch is reported on `exchange`.
 */
export function validateOrder(order: OrderDraft, spec: InstrumentSpec): readonly RuleViolation[] {
  const out: RuleViolation[] = [];
  if (order.exchange !== spec.exchange) {
    out.push({
      field: 'exchange',
      code: 'invalid_combination',
      message: `${spec.tradingsymbol} trades on ${spec.exchange}, not ${order.exchange}`,
    });
    return out;
  }
  checkQuantity(order, spec, out);
  checkProduct(order, spec, out);
  checkOrderType(order, spec, out);
  checkPrices(order, spec, out);
  // One message per field: the first found is the most basic.
  const seen = new Set<OrderField>();
  return out.filter((v) => (seen.has(v.field) ? false : (seen.add(v.field), true)));
}

/** The parts of a working order a modification is judged against. */
export interface WorkingOrder extends OrderDraft {
  readonly filledQuantity: number;
}

/**
 * The order as it would be after `changes`, with the broker's rule for switching type: a price
 * or trigger the new type does not take is dropped unless the change sends it (docs/api.md
 * §PATCH), one it takes is kept.
 */
export function applyChanges(order: WorkingOrder, changes: OrderChanges): OrderDraft {
  const orderType = changes.orderType ?? order.orderType;
  const keep = (sent: number | null | undefined, had: number | null | undefined, takes: boolean) =>
    sent !== undefined ? sent : takes ? (had ?? null) : null;
  return {
    exchange: order.exchange,
    transactionType: order.transactionType,
    product: order.product,
    quantity: changes.quantity ?? order.quantity,
    orderType,
    validity: changes.validity ?? order.validity,
    price: keep(changes.price, order.price, takesPrice(orderType)),
    triggerPrice: keep(changes.triggerPrice, order.triggerPrice, takesTrigger(orderType)),
  };
}

/**
 * Every rule a modification breaks: the modified order must pass every placement rule, and its
 * quantity must stay above what has already filled. Used by main before it sends a PATCH (the
 * paper broker applies the same rules again, authoritatively).
 */
export function validateModification(
  order: WorkingOrder,
  changes: OrderChanges,
  spec: InstrumentSpec,
): readonly RuleViolation[] {
  const merged = applyChanges(order, changes);
  const out = [...validateOrder(merged, spec)];
  if (!out.some((v) => v.field === 'quantity') && merged.quantity <= order.filledQuantity) {
    out.unshift({
      field: 'quantity',
      code: 'invalid_field',
      message: `Quantity must stay above the ${order.filledQuantity} already filled`,
    });
  }
  return out;
}
