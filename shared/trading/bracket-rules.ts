import type { OrderRequest, Product, TransactionType } from '../domain/order';
import type { Bracket, BracketChild, BracketChildStatus, TrailSpec } from '../domain/bracket';
import { fromUnits, toUnits } from './money';
import { allowedOrderTypes, tickProblem, type InstrumentSpec } from './rules';

/**
 * The rules of a bracket's exits (docs/brackets.md): the ticket applies them as the trader types,
 * main before it journals a bracket, and the bracket machine when it moves a trailing stop.
 */

/** The side that closes a position of `side`. */
export function exitSide(side: TransactionType): TransactionType {
  return side === 'BUY' ? 'SELL' : 'BUY';
}

/** How far an options stop-loss's limit sits past its trigger (SL-M is not accepted on options). */
export const STOP_LIMIT_BUFFER_PCT = 2;

/** What the exits are built from. */
export interface ExitBasis {
  readonly exchange: OrderRequest['exchange'];
  readonly tradingsymbol: string;
  readonly product: Product;
  /** The position's side (BUY for a long). */
  readonly side: TransactionType;
}

/**
 * The stop-loss order closing `quantity` of a `side` position at `triggerPrice`: SL-M where the
 * instrument takes it, else (options) an SL whose limit is `STOP_LIMIT_BUFFER_PCT` past the
 * trigger, on the tick grid, so it still fills in a fast market (docs/brackets.md §The orders).
 */
export function stopOrder(
  basis: ExitBasis,
  quantity: number,
  triggerPrice: number,
  instrument: Pick<InstrumentSpec, 'instrumentType' | 'tickSize'>,
): OrderRequest {
  const transactionType = exitSide(basis.side);
  const common = {
    exchange: basis.exchange,
    tradingsymbol: basis.tradingsymbol,
    transactionType,
    quantity,
    product: basis.product,
    validity: 'DAY' as const,
  };
  if (allowedOrderTypes(instrument).includes('SL-M')) {
    return { ...common, orderType: 'SL-M', triggerPrice, price: null };
  }
  return {
    ...common,
    orderType: 'SL',
    triggerPrice,
    price: stopLimit(transactionType, triggerPrice, instrument.tickSize),
  };
}

/** The limit of an SL stop: the buffer past the trigger towards a fill, on the grid, at least one tick. */
export function stopLimit(transactionType: TransactionType, triggerPrice: number, tickSize: number): number {
  const tick = toUnits(tickSize);
  const t = toUnits(triggerPrice);
  const buffer = Math.max(tick, Math.floor((t * STOP_LIMIT_BUFFER_PCT) / 100 / tick) * tick);
  return fromUnits(transactionType === 'SELL' ? Math.max(tick, t - buffer) : t + buffer);
}

/** The target order closing `quantity` of a `side` position: a LIMIT at `price`. */
export function targetOrder(basis: ExitBasis, quantity: number, price: number): OrderRequest {
  return {
    exchange: basis.exchange,
    tradingsymbol: basis.tradingsymbol,
    transactionType: exitSide(basis.side),
    quantity,
    orderType: 'LIMIT',
    product: basis.product,
    validity: 'DAY',
    price,
    triggerPrice: null,
  };
}

/** A bracket's fields a rule can blame, as the bridge names them. */
export type BracketField = 'stop.triggerPrice' | 'target.price' | 'trail.amount';

/** What the exits of a bracket are judged against. */
export interface BracketDraft {
  /** The position's side once the entry fills (BUY for a long). */
  readonly side: TransactionType;
  /** Where the position starts from: the entry's price, or the last price (a MARKET entry, a position). */
  readonly reference: number | null;
  readonly stop: number | null;
  readonly target: number | null;
  readonly trail: TrailSpec | null;
}

/**
 * Every rule the exits break, at most one per field: each price on the tick grid; for a long the
 * stop below the reference and the target above it (mirrored for a short), since an exit on the
 * wrong side would fill at once; a trail of at least one tick, a percentage under 50.
 */
export function bracketProblems(
  d: BracketDraft,
  instrument: Pick<InstrumentSpec, 'tickSize'>,
): Partial<Record<BracketField, string>> {
  const out: Partial<Record<BracketField, string>> = {};
  const long = d.side === 'BUY';
  const ref = d.reference;
  if (d.stop !== null) {
    const p = tickProblem('Stop-loss', d.stop, instrument.tickSize);
    if (p) out['stop.triggerPrice'] = p;
    else if (ref !== null && (long ? toUnits(d.stop) >= toUnits(ref) : toUnits(d.stop) <= toUnits(ref)))
      out['stop.triggerPrice'] =
        `The stop-loss must be ${long ? 'below' : 'above'} ${money(ref)} for a ${long ? 'long' : 'short'} position`;
  }
  if (d.target !== null) {
    const p = tickProblem('Target', d.target, instrument.tickSize);
    if (p) out['target.price'] = p;
    else if (ref !== null && (long ? toUnits(d.target) <= toUnits(ref) : toUnits(d.target) >= toUnits(ref)))
      out['target.price'] =
        `The target must be ${long ? 'above' : 'below'} ${money(ref)} for a ${long ? 'long' : 'short'} position`;
  }
  if (d.trail !== null) {
    if (d.stop === null) out['trail.amount'] = 'Only a stop-loss can trail: add one';
    else if (d.trail.by === 'percent' && !(d.trail.amount > 0 && d.trail.amount < 50))
      out['trail.amount'] = 'Trail by more than 0% and less than 50%';
    else if (d.trail.by === 'points') {
      const p = tickProblem('Trail', d.trail.amount, instrument.tickSize);
      if (p) out['trail.amount'] = p;
    }
  }
  return out;
}

function money(v: number): string {
  return `₹${v.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
}

/**
 * Where a trailing stop belongs for a `side` position whose best price so far is `best`: that far
 * behind it (rupees, or a percentage of `best`), rounded on the grid away from the price — so a
 * stop is never tighter than the trader asked.
 */
export function trailTrigger(side: TransactionType, best: number, trail: TrailSpec, tickSize: number): number {
  const tick = toUnits(tickSize);
  const b = toUnits(best);
  const distance = trail.by === 'points' ? toUnits(trail.amount) : (b * trail.amount) / 100;
  return side === 'BUY'
    ? fromUnits(Math.max(tick, Math.floor((b - distance) / tick) * tick))
    : fromUnits(Math.ceil((b + distance) / tick) * tick);
}

/**
 * True when moving a stop from `current` to `next` is in the trader's favour by at least one tick:
 * up for a long's stop, down for a short's. A trailing stop moves only then — never back.
 */
export function trailImproves(side: TransactionType, current: number, next: number, tickSize: number): boolean {
  const step = toUnits(tickSize);
  return side === 'BUY' ? toUnits(next) - toUnits(current) >= step : toUnits(current) - toUnits(next) >= step;
}

/** True when `price` is more favourable than `best` for a `side` position (higher for a long). */
export function betterPrice(side: TransactionType, price: number, best: number | null): boolean {
  return best === null || (side === 'BUY' ? price > best : price < best);
}

/**
 * What a bracket's exits protect now: what its entry filled (or the position given) less every
 * fill of its exits, earlier orders of a role included (docs/brackets.md §The controller).
 */
export function protectedQuantity(b: Pick<Bracket, 'entry' | 'quantity' | 'exited' | 'stop' | 'target'>): number {
  const covered = b.entry ? b.entry.filled : b.quantity;
  return Math.max(0, covered - b.exited - (b.stop?.filled ?? 0) - (b.target?.filled ?? 0));
}

/**
 * One of a bracket's orders as main first records it (docs/brackets.md §States): no order id
 * yet, nothing filled, no message, nothing pending, no failures, the first of its role.
 */
export function newChild(ref: string, order: OrderRequest, status: BracketChildStatus): BracketChild {
  return {
    ref,
    order,
    orderId: null,
    status,
    filled: 0,
    averagePrice: 0,
    message: null,
    pending: null,
    failures: 0,
    retryAt: null,
    gen: 0,
  };
}
