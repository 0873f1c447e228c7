import { randomBytes } from 'node:crypto';
import type { Exchange } from '@shared/domain/instrument';
import type { OrderStatus, OrderType, Product, TransactionType, Validity, Variety } from '@shared/domain/order';
import { isWorking } from '@shared/domain/order';
import { fromUnits, toUnits } from '@shared/trading/money';
import { applyChanges, takesPrice, takesTrigger, validateModification } from '@shared/trading/rules';
import { type Account } from './account';
import { isOpen } from './calendar';
import type { PaperInstrument } from './instruments';
import { intrinsic } from '@shared/trading/options-pricing';
import { leverageOf, marginFor } from './margin';
import type { Market, PriceMove } from './market';
import { Problem } from './problem';
import { rulesProblem } from './rules-wire';
import { type PaperOrder, type PaperTrade, pendingOf } from './types';
import { LPP_CANCELLED, lppRange, outsideLpp } from './lpp';

/** How a working order's message says it is part filled: `Partly filled: 297 of 500`. */
const PARTLY_FILLED = 'Partly filled:';
/**
 * The matching engine: the order state machine, fills against the book, the margin orders
 * block, and what the close of a session does to them (docs/api.md §Matching, §After-market
 * orders, §The close).
 *
 * Synchronous and single-threaded, so every request sees one consistent state and the journal
 * records the events in the order they happened. States: AMO REQ RECEIVED → OPEN | TRIGGER
 * PENDING (released at the open), TRIGGER PENDING → OPEN (when the trigger is crossed), →
 * COMPLETE | CANCELLED | REJECTED, which are terminal.
 */

/** A validated order to place (prices in price units). */
export interface PlaceRequest {
  readonly instrument: PaperInstrument;
  readonly clientOrderId: string | null;
  readonly transactionType: TransactionType;
  readonly quantity: number;
  readonly orderType: OrderType;
  readonly product: Product;
  readonly validity: Validity;
  readonly priceUnits: number | null;
  readonly triggerUnits: number | null;
  /** `regular` unless an after-market order (absent: regular). */
  readonly variety?: Variety;
}

/**
 * The fields PATCH may change, prices in rupees as sent (null or 0 clears): they are judged by
 * the shared rules as sent and only then turned into units, so nothing is rounded on the way.
 */
export interface OrderChanges {
  readonly quantity?: number;
  readonly price?: number | null;
  readonly triggerPrice?: number | null;
  readonly orderType?: OrderType;
  readonly validity?: Validity;
}

/** What the engine tells the journal and the stream. */
export interface EngineSink {
  order(o: PaperOrder): void;
  trade(t: PaperTrade): void;
}

/** The margin a prospective order needs (POST /margins/orders and placement). */
export interface MarginQuote {
  readonly totalUnits: number;
  readonly orderValueUnits: number;
  readonly leverage: number;
}

/** Indian digit grouping, built once: `toLocaleString` would build a formatter per call. */
const INR = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** ₹1,480.05 / ₹83.2525: every digit a price or amount has, down to ₹0.0001. */
const rupees = (units: number): string => `₹${INR.format(fromUnits(units))}`;

/** ₹1,644.50: a circuit limit as the broker's refusal names it (two decimals at least). */
const limitText = rupees;

/** True for the order types that carry a limit price (LIMIT, SL). */
const hasLimit = (t: OrderType): boolean => t === 'LIMIT' || t === 'SL';

/**
 * Which taker goes first at a price event (docs/api.md §Matching, priority): MARKET before a
 * limit, the better limit before the worse, then the older order.
 */
function priority(a: PaperOrder, b: PaperOrder): number {
  const la = hasLimit(a.orderType) ? a.priceUnits : null;
  const lb = hasLimit(b.orderType) ? b.priceUnits : null;
  if (la === null || lb === null) {
    if (la !== lb) return la === null ? -1 : 1;
  } else if (la !== lb) return a.transactionType === 'BUY' ? lb - la : la - lb;
  return Number(a.orderId) - Number(b.orderId);
}

export class Engine {
  private readonly orders = new Map<string, PaperOrder>();
  private readonly byClientId = new Map<string, string>();
  /** Working orders per instrument token, so a price move touches only its own orders. */
  private readonly working = new Map<number, Set<string>>();
  private readonly tradeList: PaperTrade[] = [];
  private orderSeq = 0;
  private tradeSeq = 0;
  /**
   * The change sequence (docs/api.md §Incremental reads): each order's number of its latest
   * change, oldest first (an order is moved to the end when it changes), so a read since a
   * cursor is the tail of this map. Numbers start again at each start: the cursor names the run.
   */
  private readonly changes = new Map<string, number>();
  private changeSeq = 0;
  /** Names this run of the engine in cursors, so a cursor from before a restart is not mistaken for one of now. */
  readonly run = randomBytes(4).toString('hex');
  /** Told of every numbered change (the lagging order book, docs/api.md §A lagging order book); null: nobody. */
  private changeWatcher: ((o: PaperOrder, seq: number) => void) | null = null;

  constructor(
    private readonly market: Market,
    readonly account: Account,
    private readonly sink: EngineSink,
  ) {}

  // ------------------------------------------------------------------ reads

  allOrders(): PaperOrder[] {
    return [...this.orders.values()];
  }

  order(orderId: string): PaperOrder | undefined {
    return this.orders.get(orderId);
  }

  orderByClientId(clientOrderId: string): PaperOrder | undefined {
    const id = this.byClientId.get(clientOrderId);
    return id === undefined ? undefined : this.orders.get(id);
  }

  trades(): readonly PaperTrade[] {
    return this.tradeList;
  }

  orderCount(): number {
    return this.orders.size;
  }

  /** The number of the latest order change (0 before any). */
  changeCursor(): number {
    return this.changeSeq;
  }

  /** Orders whose latest change is numbered above `seq`, in the order they last changed. */
  ordersChangedSince(seq: number): PaperOrder[] {
    const out: PaperOrder[] = [];
    if (seq >= this.changeSeq) return out;
    for (const [id, at] of this.changes) {
      if (at <= seq) continue;
      const o = this.orders.get(id);
      if (o) out.push(o);
    }
    return out;
  }

  /** Numbers a change of `o` (every transition and every order restored from the journal). */
  private noteChange(o: PaperOrder): void {
    this.changeSeq += 1;
    this.changes.delete(o.orderId);
    this.changes.set(o.orderId, this.changeSeq);
    this.changeWatcher?.(o, this.changeSeq);
  }

  /**
   * Calls `watcher` with each order change and its number, as it is numbered (the order is the
   * engine's own, changed in place: copy what must be kept). One watcher; a second replaces it.
   */
  watchChanges(watcher: (o: PaperOrder, seq: number) => void): void {
    this.changeWatcher = watcher;
  }

  /**
   * Numbers new orders and trades above these ids: the journal's high-water mark, so an id is
   * never given twice, even when the order that had it was torn off the journal's end.
   */
  continueAbove(orderId: number, tradeId: number): void {
    this.orderSeq = Math.max(this.orderSeq, orderId - 260_000_000_000);
    this.tradeSeq = Math.max(this.tradeSeq, tradeId - 70_000_000);
  }

  /** Margin blocked by working orders. */
  blockedUnits(): number {
    let sum = 0;
    for (const ids of this.working.values()) for (const id of ids) sum += this.orders.get(id)?.blockedUnits ?? 0;
    return sum;
  }

  usedMarginUnits(): number {
    return this.blockedUnits() + this.account.positionsMargin();
  }

  availableMarginUnits(): number {
    return this.account.cashUnits - this.usedMarginUnits();
  }

  /** The reference price margin is computed at: the limit, else the trigger, else the LTP. */
  private referencePrice(r: Pick<PlaceRequest, 'orderType' | 'priceUnits' | 'triggerUnits'>, token: number): number {
    if (takesPrice(r.orderType) && r.priceUnits) return r.priceUnits;
    if (takesTrigger(r.orderType) && r.triggerUnits) return r.triggerUnits;
    return this.market.ltp(token);
  }

  /**
   * Margin for an order of `r.quantity` (docs/api.md §Margins, positions, holdings, funds). Only
   * the part that adds exposure needs margin: selling out of a long (or buying back a short) is
   * free, so a trader can always exit — but only up to the part of the position that earlier
   * working orders on the same side are not already closing. Five SELL 100 against a long 100:
   * the first is free, the other four would open a short and are margined as such.
   *
   * `self` is the order being modified: it keeps its place in time, so only orders placed before
   * it count, and a price change does not take the free part from the earliest exit.
   */
  quote(r: Omit<PlaceRequest, 'clientOrderId' | 'validity'>, self?: PaperOrder): MarginQuote {
    const i = r.instrument;
    const ref = this.referencePrice(r, i.token);
    const leverage = leverageOf(r.product, i.instrumentType, r.transactionType);
    // Price × quantity × multiplier: what the contract is worth in rupees (GOLD is ×100).
    const orderValueUnits = ref * r.quantity * i.multiplier;
    if (r.product === 'CNC') {
      return { totalUnits: r.transactionType === 'BUY' ? orderValueUnits : 0, orderValueUnits, leverage };
    }
    const net = this.account.position(i.token, r.product)?.net ?? 0;
    const reducing = (r.transactionType === 'BUY' && net < 0) || (r.transactionType === 'SELL' && net > 0);
    const free = reducing ? Math.max(0, Math.abs(net) - this.closingAhead(r, i.token, self)) : 0;
    const adding = Math.max(0, r.quantity - free);
    return { totalUnits: marginFor(ref * adding * i.multiplier, leverage), orderValueUnits, leverage };
  }

  /**
   * Quantity still to fill on working orders of the same side, product and instrument placed
   * before `self` (all of them for a new order): what is already closing the position.
   */
  private closingAhead(r: Pick<PlaceRequest, 'product' | 'transactionType'>, token: number, self?: PaperOrder): number {
    let sum = 0;
    for (const id of this.working.get(token) ?? []) {
      const w = this.orders.get(id);
      if (!w || w === self || w.product !== r.product || w.transactionType !== r.transactionType) continue;
      if (self && Number(w.orderId) > Number(self.orderId)) continue;
      sum += pendingOf(w);
    }
    return sum;
  }

  // ------------------------------------------------------------------ commands

  place(r: PlaceRequest, at: number): PaperOrder {
    const o = this.newOrder(r, at);
    this.orders.set(o.orderId, o);
    // The first order keeps the reference (a broker without unique references may hold more).
    if (o.clientOrderId !== null && !this.byClientId.has(o.clientOrderId))
      this.byClientId.set(o.clientOrderId, o.orderId);

    const refusal = this.refusal(o, r);
    if (refusal !== null) {
      o.cancelled = o.quantity;
      this.transition(o, 'REJECTED', refusal, at);
      return o;
    }
    o.blockedUnits = this.quote(r).totalUnits;
    this.index(o);
    if (o.variety === 'amo') {
      // Held for the next open (docs/api.md §After-market orders); the route checked the session.
      this.transition(o, 'AMO REQ RECEIVED', null, at);
      return o;
    }
    this.transition(o, takesTrigger(o.orderType) ? 'TRIGGER PENDING' : 'OPEN', null, at);
    this.arrive(o, at);
    return o;
  }

  /**
   * An order reaching the market (placed, modified, released at the open): while its exchange is
   * open it triggers if its stop is crossed and takes what the book offers; an IOC then cancels
   * what did not fill.
   */
  private arrive(o: PaperOrder, at: number): void {
    if (isOpen(o.exchange, at)) {
      if (o.status === 'TRIGGER PENDING') this.trigger(o, at);
      if (o.status === 'OPEN') this.takeBook(o, at);
    }
    if (o.validity === 'IOC' && isWorking(o.status)) this.cancelRest(o, 'IOC: the unfilled quantity was cancelled', at);
  }

  /**
   * The first of a price and trigger outside today's band, or null (docs/api.md §Matching): a
   * placement is then REJECTED, a modification refused with a 400 naming the field.
   */
  private bandBreach(
    token: number,
    priceUnits: number | null,
    triggerUnits: number | null,
  ): { field: 'price' | 'trigger_price'; message: string } | null {
    const [lo, hi] = this.market.band(token);
    for (const [field, p] of [
      ['price', priceUnits],
      ['trigger_price', triggerUnits],
    ] as const) {
      // The broker's wording (docs/api.md §Circuit limits).
      const which = field === 'price' ? 'order price' : 'trigger price';
      if (p !== null && p > hi) {
        const message = `Your ${which} ${rupees(p)} is higher than the current upper circuit limit of ${limitText(hi)}. Place an order within the daily range.`;
        return { field, message };
      }
      if (p !== null && p < lo) {
        const message = `Your ${which} ${rupees(p)} is lower than the current lower circuit limit of ${limitText(lo)}. Place an order within the daily range.`;
        return { field, message };
      }
    }
    return null;
  }

  /** Why an order must be REJECTED (band, holdings, margin), or null to accept it. */
  private refusal(o: PaperOrder, r: PlaceRequest): string | null {
    const breach = this.bandBreach(o.token, o.priceUnits, o.triggerUnits);
    if (breach) return breach.message;
    if (o.product === 'CNC' && o.transactionType === 'SELL') {
      const free = this.freeToSell(o.token, o);
      if (free < o.quantity) {
        return `Insufficient holdings: selling ${o.quantity} needs that many in holdings; ${Math.max(0, free)} free to sell`;
      }
    }
    const need = this.quote(r).totalUnits;
    const available = this.availableMarginUnits();
    // An exit needs no margin, so a shortfall (a realised loss can make it negative) never refuses one.
    if (need > 0 && need > available) {
      return `Insufficient funds: this order needs ${rupees(need)} margin; ${rupees(Math.max(0, available))} is available`;
    }
    return null;
  }

  /** Shares held (settled, or bought today) that no working CNC sell other than `except` has claimed yet. */
  private freeToSell(token: number, except: PaperOrder): number {
    let claimed = 0;
    for (const id of this.working.get(token) ?? []) {
      const w = this.orders.get(id);
      if (w && w !== except && w.product === 'CNC' && w.transactionType === 'SELL') claimed += pendingOf(w);
    }
    return this.account.deliverable(token) - claimed;
  }

  /**
   * Applies a modification. `ifVersion` is the PATCH's `If-Match` precondition: when the order
   * has been modified since the client read it, nothing changes and the answer is 412, so a
   * late retry can never undo a newer change.
   */
  modify(orderId: string, c: OrderChanges, at: number, ifVersion?: number): PaperOrder {
    const o = this.orders.get(orderId);
    if (!o) throw new Problem(404, 'not_found', `Order ${orderId} was not found`);
    if (ifVersion !== undefined && ifVersion !== o.version) {
      throw new Problem(
        412,
        'precondition_failed',
        `Order ${orderId} is at version ${o.version}, not ${ifVersion}: it was modified since you read it; nothing was changed`,
        [{ field: 'If-Match', message: `order is at version ${o.version}` }],
        { version: o.version },
      );
    }
    if (!isWorking(o.status)) {
      throw new Problem(409, 'order_not_modifiable', `Order ${orderId} is ${o.status} and can no longer be modified`);
    }
    const instrument = this.market.instrument(o.token);
    if (!instrument) throw new Problem(409, 'order_not_modifiable', `${o.tradingsymbol} has expired`);
    const kept = (units: number | null): number | null => (units === null ? null : fromUnits(units));
    const working = { ...o, price: kept(o.priceUnits), triggerPrice: kept(o.triggerUnits), filledQuantity: o.filled };
    const problem = rulesProblem(validateModification(working, c, instrument));
    if (problem) throw problem;
    // Valid now: a price the type takes is on the tick, one it does not take is absent (null or 0).
    const draft = applyChanges(working, c);
    const orderType = draft.orderType;
    const priceUnits = takesPrice(orderType) && draft.price ? toUnits(draft.price) : null;
    const triggerUnits = takesTrigger(orderType) && draft.triggerPrice ? toUnits(draft.triggerPrice) : null;
    const breach = this.bandBreach(o.token, priceUnits, triggerUnits);
    if (breach) {
      const { field, message } = breach;
      throw new Problem(400, 'invalid_field', `${field}: ${message}`, [{ field, message }]);
    }
    const remaining = draft.quantity - o.filled;
    if (o.product === 'CNC' && o.transactionType === 'SELL') {
      const free = this.freeToSell(o.token, o);
      if (remaining > free) {
        const message = `Insufficient holdings: the modified order sells ${remaining} more; ${Math.max(0, free)} free to sell`;
        throw new Problem(400, 'invalid_field', `quantity: ${message}`, [{ field: 'quantity', message }]);
      }
    }
    const need = this.quote(
      {
        instrument,
        transactionType: o.transactionType,
        quantity: remaining,
        orderType,
        product: o.product,
        priceUnits,
        triggerUnits,
      },
      o,
    ).totalUnits;
    // Only extra margin must be free: a change that needs no more than is blocked always fits.
    if (need > o.blockedUnits && need - o.blockedUnits > this.availableMarginUnits()) {
      const message = `Insufficient funds: the modified order needs ${rupees(need)} margin; ${rupees(Math.max(0, this.availableMarginUnits() + o.blockedUnits))} is available`;
      throw new Problem(400, 'insufficient_margin', message, [{ field: 'quantity', message }]);
    }
    const changed: string[] = [];
    const note = (name: string, from: unknown, to: unknown): void => {
      if (from !== to) changed.push(`${name} ${String(from ?? '–')} → ${String(to ?? '–')}`);
    };
    note('quantity', o.quantity, draft.quantity);
    note('type', o.orderType, orderType);
    note('price', kept(o.priceUnits), kept(priceUnits));
    note('trigger', kept(o.triggerUnits), kept(triggerUnits));
    note('validity', o.validity, draft.validity);
    const wasTriggerType = takesTrigger(o.orderType);
    o.quantity = draft.quantity;
    o.orderType = orderType;
    o.validity = draft.validity;
    o.priceUnits = priceUnits;
    o.triggerUnits = triggerUnits;
    o.blockedUnits = need;
    o.version += 1;
    let status: OrderStatus = o.status;
    if (o.status === 'AMO REQ RECEIVED') status = o.status;
    else if (!takesTrigger(orderType)) status = 'OPEN';
    else if (!wasTriggerType) status = 'TRIGGER PENDING';
    this.transition(o, status, `Modified: ${changed.join(', ') || 'no change'}`, at);
    if (o.status !== 'AMO REQ RECEIVED') this.arrive(o, at);
    return o;
  }

  /** Cancels a working order; repeating it on a CANCELLED order is a no-op (idempotent). */
  cancel(orderId: string, at: number): PaperOrder {
    const o = this.orders.get(orderId);
    if (!o) throw new Problem(404, 'not_found', `Order ${orderId} was not found`);
    if (o.status === 'CANCELLED') return o;
    if (!isWorking(o.status)) {
      throw new Problem(409, 'order_not_modifiable', `Order ${orderId} is ${o.status} and can no longer be cancelled`);
    }
    this.cancelRest(o, 'Cancelled by the user', at);
    return o;
  }

  /**
   * A price event on each instrument that moved (docs/api.md §Matching): stops whose trigger is
   * crossed trigger; resting limits the price reached fill at their limit; then the orders that
   * take the book (MARKET remainders and stops just triggered) take it in price-time priority.
   * Nothing matches while the exchange is not open (a control price outside hours).
   */
  onMoves(moves: readonly PriceMove[]): void {
    for (const m of moves) {
      const ids = this.working.get(m.token);
      if (!ids || ids.size === 0) continue;
      const first = this.orders.get(ids.values().next().value ?? '');
      if (!first || !isOpen(first.exchange, m.at)) continue;
      const takers: PaperOrder[] = [];
      // Oldest first: time priority among this account's own orders.
      for (const id of [...ids]) {
        const o = this.orders.get(id);
        if (!o || !isWorking(o.status) || o.status === 'AMO REQ RECEIVED') continue;
        if (o.status === 'TRIGGER PENDING') {
          if (this.trigger(o, m.at)) takers.push(o);
          continue;
        }
        const limit = hasLimit(o.orderType) ? o.priceUnits : null;
        if (limit === null) takers.push(o);
        else if (o.transactionType === 'BUY' ? m.ltpUnits <= limit : m.ltpUnits >= limit) {
          // The market traded at or through a resting limit: it fills there, whole.
          this.fill(o, limit, pendingOf(o), m.at);
        }
      }
      takers.sort(priority);
      for (const o of takers) if (o.status === 'OPEN') this.takeBook(o, m.at);
    }
  }

  /**
   * The close of `exchange`'s session on IST date `date` at `at` (docs/api.md §The close):
   * working regular orders are cancelled, MIS positions squared off at the last price, and the
   * contracts expiring that day settle and leave the universe.
   */
  closeSession(exchange: Exchange, date: string, at: number): void {
    for (const ids of this.working.values()) {
      for (const id of [...ids]) {
        const o = this.orders.get(id);
        if (o && o.exchange === exchange && o.variety === 'regular' && isWorking(o.status))
          this.cancelRest(o, 'Cancelled at the close: a DAY order lives one session', at);
      }
    }
    for (const p of [...this.account.positions.values()]) {
      if (p.exchange !== exchange || p.product !== 'MIS' || p.net === 0) continue;
      this.systemFill(
        p.token,
        p.net > 0 ? 'SELL' : 'BUY',
        Math.abs(p.net),
        'MIS',
        this.market.ltp(p.token),
        'Squared off at the close (MIS)',
        at,
      );
    }
    for (const i of [...this.market.instruments]) {
      if (i.exchange !== exchange || i.expiry !== date) continue;
      const price = this.settlementPrice(i);
      for (const id of [...(this.working.get(i.token) ?? [])]) {
        const o = this.orders.get(id);
        if (o) this.cancelRest(o, `Cancelled: ${i.tradingsymbol} expired`, at);
      }
      for (const p of [...this.account.positions.values()]) {
        if (p.token !== i.token || p.net === 0) continue;
        this.systemFill(
          i.token,
          p.net > 0 ? 'SELL' : 'BUY',
          Math.abs(p.net),
          p.product,
          price,
          `Settled at expiry at ${rupees(price)}`,
          at,
        );
      }
      this.market.expire(i.token);
    }
  }

  /** A contract's settlement price: a future's last price, an option's intrinsic value on the tick grid. */
  private settlementPrice(i: PaperInstrument): number {
    const ltp = this.market.ltp(i.token);
    if (i.instrumentType !== 'CE' && i.instrumentType !== 'PE') return ltp;
    const spot = this.market.spot(i.underlying) ?? 0;
    const value = intrinsic(i.instrumentType, spot, i.strike ?? 0) * 10_000;
    return Math.round(value / i.tickUnits) * i.tickUnits;
  }

  /**
   * The open of `exchange`'s session (docs/api.md §After-market orders, §Matching): each held AMO
   * order is released to the market, and every working order there (AMO or collected in the
   * pre-open), oldest first, arrives at the market like a newly placed order.
   */
  openSession(exchange: Exchange, at: number): void {
    const waiting = this.allOrders().filter((o) => o.exchange === exchange && isWorking(o.status));
    for (const o of waiting) {
      if (o.status === 'AMO REQ RECEIVED')
        this.transition(o, takesTrigger(o.orderType) ? 'TRIGGER PENDING' : 'OPEN', 'Released at the open', at);
      if (isWorking(o.status)) this.arrive(o, at);
    }
  }

  /**
   * An order the broker places itself (a square-off, an expiry settlement): MARKET, no client
   * reference, filled at once at `priceUnits`.
   */
  private systemFill(
    token: number,
    side: TransactionType,
    quantity: number,
    product: Product,
    priceUnits: number,
    message: string,
    at: number,
  ): void {
    const instrument = this.market.instrument(token);
    if (!instrument) return;
    const o = this.newOrder(
      {
        instrument,
        clientOrderId: null,
        transactionType: side,
        quantity,
        orderType: 'MARKET',
        product,
        validity: 'DAY',
        priceUnits: null,
        triggerUnits: null,
      },
      at,
    );
    this.orders.set(o.orderId, o);
    this.index(o);
    this.transition(o, 'OPEN', message, at);
    this.fill(o, priceUnits, quantity, at);
  }

  // ------------------------------------------------------------------ internals

  /** A new order's record, numbered next, before any transition: the one shape every order starts in. */
  private newOrder(r: PlaceRequest, at: number): PaperOrder {
    const i = r.instrument;
    this.orderSeq += 1;
    return {
      orderId: String(260_000_000_000 + this.orderSeq),
      clientOrderId: r.clientOrderId,
      token: i.token,
      exchange: i.exchange,
      tradingsymbol: i.tradingsymbol,
      instrumentType: i.instrumentType,
      transactionType: r.transactionType,
      quantity: r.quantity,
      filled: 0,
      cancelled: 0,
      orderType: r.orderType,
      product: r.product,
      validity: r.validity,
      variety: r.variety ?? 'regular',
      priceUnits: takesPrice(r.orderType) ? r.priceUnits : null,
      triggerUnits: takesTrigger(r.orderType) ? r.triggerUnits : null,
      filledValueUnits: 0,
      status: 'OPEN',
      statusMessage: null,
      placedAt: at,
      updatedAt: at,
      blockedUnits: 0,
      version: 1,
      history: [],
    };
  }

  private index(o: PaperOrder): void {
    let set = this.working.get(o.token);
    if (!set) {
      set = new Set();
      this.working.set(o.token, set);
    }
    set.add(o.orderId);
  }

  private unindex(o: PaperOrder): void {
    this.working.get(o.token)?.delete(o.orderId);
  }

  private transition(o: PaperOrder, status: OrderStatus, message: string | null, at: number): void {
    o.status = status;
    if (message !== null) o.statusMessage = message;
    o.updatedAt = at;
    if (!isWorking(status)) {
      o.blockedUnits = 0;
      this.unindex(o);
    }
    o.history.push({ status, at, filled: o.filled, filledValueUnits: o.filledValueUnits, message });
    this.noteChange(o);
    this.sink.order(o);
  }

  private cancelRest(o: PaperOrder, why: string, at: number): void {
    o.cancelled += pendingOf(o);
    this.transition(o, 'CANCELLED', why, at);
  }

  /** Triggers a stop whose trigger the last price has crossed; true when it did. */
  private trigger(o: PaperOrder, at: number): boolean {
    const ltp = this.market.ltp(o.token);
    const trig = o.triggerUnits ?? 0;
    if (ltp <= 0 || (o.transactionType === 'BUY' ? ltp < trig : ltp > trig)) return false;
    this.transition(o, 'OPEN', `Triggered at ${rupees(ltp)}`, at);
    // The exchange checks a stop-limit's price when it releases it (docs/api.md §Matching).
    const limit = hasLimit(o.orderType) ? o.priceUnits : null;
    if (outsideLpp(lppRange(o.exchange, o.instrumentType, ltp), o.transactionType, limit)) {
      this.cancelRest(o, LPP_CANCELLED, at);
      return false;
    }
    return true;
  }

  /**
   * Takes the book for an order (docs/api.md §Matching, "Taking the book"): level by level from
   * the best, each at its own price, as far as the limit allows; what is taken stays taken.
   */
  private takeBook(o: PaperOrder, at: number): void {
    const book = this.market.book(o.token);
    if (!book) return;
    const limit = hasLimit(o.orderType) ? o.priceUnits : null;
    const fills = book.take(o.transactionType === 'BUY' ? 'sell' : 'buy', pendingOf(o), limit);
    for (const f of fills) this.fill(o, f.price, f.quantity, at);
    if (fills.length > 0) this.market.bookChanged(o.token);
  }

  /** One fill of `qty` at `priceUnits`: a trade, the position, the block released, the transition. */
  private fill(o: PaperOrder, priceUnits: number, qty: number, at: number): void {
    const instrument = this.market.instrument(o.token);
    const pending = pendingOf(o);
    if (!instrument || qty <= 0 || qty > pending) return;
    // Release the block for the filled part before the position takes its own margin.
    o.blockedUnits = pending === qty ? 0 : o.blockedUnits - Math.round((o.blockedUnits * qty) / pending);
    this.tradeSeq += 1;
    const t: PaperTrade = {
      tradeId: String(70_000_000 + this.tradeSeq),
      orderId: o.orderId,
      token: o.token,
      exchange: o.exchange,
      tradingsymbol: o.tradingsymbol,
      instrumentType: o.instrumentType,
      transactionType: o.transactionType,
      product: o.product,
      quantity: qty,
      priceUnits,
      multiplier: instrument.multiplier,
      at,
    };
    this.tradeList.push(t);
    this.account.applyTrade(t);
    this.sink.trade(t);
    o.filled += qty;
    o.filledValueUnits += qty * priceUnits;
    const done = pendingOf(o) === 0;
    // The fill that completes an order ends its progress note; a note of why it was placed (a
    // square-off at the close) stays.
    if (done && o.statusMessage?.startsWith(PARTLY_FILLED)) o.statusMessage = null;
    this.transition(o, done ? 'COMPLETE' : 'OPEN', done ? null : `${PARTLY_FILLED} ${o.filled} of ${o.quantity}`, at);
  }

  // ------------------------------------------------------------------ journal replay

  /** Puts back an order snapshot read from the journal. */
  restoreOrder(restored: PaperOrder): void {
    // Journals written before orders had a version restore as version 1.
    const o: PaperOrder = { ...restored, version: restored.version ?? 1, variety: restored.variety ?? 'regular' };
    this.orders.set(o.orderId, o);
    this.noteChange(o);
    if (o.clientOrderId !== null && !this.byClientId.has(o.clientOrderId))
      this.byClientId.set(o.clientOrderId, o.orderId);
    if (isWorking(o.status)) this.index(o);
    else this.unindex(o);
    this.orderSeq = Math.max(this.orderSeq, Number(o.orderId) - 260_000_000_000);
  }

  /** Re-applies a fill read from the journal. */
  restoreTrade(t: PaperTrade): void {
    this.tradeList.push(t);
    this.account.applyTrade(t);
    this.tradeSeq = Math.max(this.tradeSeq, Number(t.tradeId) - 70_000_000);
  }
}
