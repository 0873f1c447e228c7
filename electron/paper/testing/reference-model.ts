import type { Exchange, InstrumentType } from '@shared/domain/instrument';
import type { OrderStatus, OrderType, Product, TransactionType, Validity } from '@shared/domain/order';
import { validateOrder } from '@shared/trading/rules';

/**
 * An independent reference model of the paper broker, for the model-based property test.
 *
 * Written from docs/api.md alone (§Orders, §The order book, §Matching, §Circuit limits, §The
 * close, §Margins, positions, holdings, funds, §Numbers and money units) and sharing no code with
 * `electron/paper/`: only the shared trading rules decide whether a request is well-formed (a
 * 400), exactly as the ticket and the broker both use them. Everything the broker decides on its
 * own — bands, the book's levels and what orders take from them, rejections, fills, priority,
 * margin blocks, averages, P&L, the close (DAY orders cancelled, MIS squared off), T+1 delivery
 * and the turn of the day — is re-derived here, so when the two disagree one of them contradicts
 * the page. Money is integer units of ₹0.0001 throughout, and every value is price × quantity ×
 * the instrument's multiplier. The sequences run inside trading hours, with the day turning to
 * the next trading day.
 */

const UNITS = 10_000;

/** Rupees on the wire → integer units of ₹0.0001. */
export const units = (rupees: number): number => Math.round(rupees * UNITS);

/**
 * a × b ÷ c for non-negative integers, rounded up or half up, exactly: in BigInt once the
 * product leaves the safe-integer range (a big position's cost times a closing quantity can).
 */
function mulDiv(a: number, b: number, c: number, round: 'up' | 'half-up'): number {
  const n = a * b;
  if (Number.isSafeInteger(2 * n + c)) {
    return round === 'up' ? Math.floor((n + c - 1) / c) : Math.floor((2 * n + c) / (2 * c));
  }
  const [bn, bc] = [BigInt(a) * BigInt(b), BigInt(c)];
  return Number(round === 'up' ? (bn + bc - 1n) / bc : (2n * bn + bc) / (2n * bc));
}
const ceilDiv = (a: number, b: number): number => mulDiv(a, 1, b, 'up');
const roundDiv = (a: number, b: number): number => mulDiv(a, 1, b, 'half-up');

/** An instrument as the model knows it: its wire row plus the day's band rule from docs/api.md §Matching. */
export interface ModelInstrument {
  readonly token: number;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly instrumentType: InstrumentType;
  readonly lotSize: number;
  readonly tickSize: number;
  readonly freezeQuantity: number;
  /** Rupees = price × quantity × this (GOLDM ×10, CDS ×1,000; 1 for equities and NFO). */
  readonly multiplier: number;
  /** The previous close: the instrument's last_price before anything moved it. */
  readonly closeUnits: number;
  /** An NSE/BSE stock that also has futures on NFO (its band is ±20%, not ±10%). */
  readonly fnoStock: boolean;
  /** A thin book (§The order book): BSE or non-F&O equities, stock and MCX options. */
  readonly thin: boolean;
}

/** A POST /orders body as the property test sends it (wire spelling, rupees). */
export interface ModelOrderRequest {
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly transaction_type: TransactionType;
  readonly quantity: number;
  readonly order_type: OrderType;
  readonly product: Product;
  readonly validity: Validity;
  readonly price?: number;
  readonly trigger_price?: number;
}

/** A PATCH /orders/{id} body (wire spelling, rupees; null or 0 clears a price). */
export interface ModelOrderChanges {
  readonly quantity?: number;
  readonly price?: number | null;
  readonly trigger_price?: number | null;
  readonly order_type?: OrderType;
  readonly validity?: Validity;
}

/** The status code a request must get, with the fields a 400 must name. */
export interface ModelReply {
  readonly status: number;
  readonly fields?: readonly string[];
  readonly code?: string;
}

/** One level of the book, fresh from a price event: price and quantity, in units and shares. */
interface Level {
  readonly price: number;
  readonly quantity: number;
}

/** An instrument's book since its last price event: the last price it was built at, and what was taken per level. */
interface ModelBook {
  readonly ltp: number;
  readonly taken: { buy: number[]; sell: number[] };
}

/** FNV-1a, 32-bit, over a string's UTF-16 code units (§The order book names it for the level quantities). */
function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let n = 0; n < text.length; n++) {
    h ^= text.charCodeAt(n);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One order as the model holds it. */
export interface ModelOrder {
  readonly id: string;
  readonly inst: ModelInstrument;
  readonly side: TransactionType;
  readonly product: Product;
  quantity: number;
  filled: number;
  cancelled: number;
  type: OrderType;
  validity: Validity;
  price: number | null;
  trigger: number | null;
  status: OrderStatus;
  /** Margin still blocked for the unfilled part. */
  block: number;
  /** Σ fill quantity × price (the order's average price; no multiplier). */
  value: number;
}

/** One fill. */
export interface ModelTrade {
  readonly orderId: string;
  readonly token: number;
  readonly side: TransactionType;
  readonly product: Product;
  readonly quantity: number;
  readonly price: number;
}

/** One of the day's positions (§Margins, positions, holdings, funds). Values carry the multiplier. */
interface Position {
  readonly inst: ModelInstrument;
  readonly product: Product;
  net: number;
  /** Cost of the open quantity, ≥ 0. */
  cost: number;
  /** Realised today. */
  realised: number;
  /** The net quantity carried in at the turn of the day, and its cost then. */
  overnight: number;
  carriedCost: number;
  /** Today's trades. */
  dayBought: number;
  dayBoughtValue: number;
  daySold: number;
  daySoldValue: number;
}

interface Holding {
  quantity: number;
  cost: number;
}

/** What an order's margin is judged on: its side, product, prices and unfilled quantity. */
type MarginSubject = Pick<ModelOrder, 'inst' | 'side' | 'product' | 'type' | 'price' | 'trigger'> & { qty: number };

const working = (o: ModelOrder): boolean => o.status === 'OPEN' || o.status === 'TRIGGER PENDING';
const pending = (o: ModelOrder): number => o.quantity - o.filled - o.cancelled;
const hasLimit = (t: OrderType): boolean => t === 'LIMIT' || t === 'SL';
const hasTrigger = (t: OrderType): boolean => t === 'SL' || t === 'SL-M';
const isOption = (i: ModelInstrument): boolean => i.instrumentType === 'CE' || i.instrumentType === 'PE';

/** The reference model of one paper account. */
export class PaperModel {
  readonly orders: ModelOrder[] = [];
  readonly trades: ModelTrade[] = [];
  private readonly byId = new Map<string, ModelOrder>();
  private readonly ltp = new Map<number, number>();
  /** The previous session's close: the last price of the latest earlier IST day. */
  private readonly close = new Map<number, number>();
  private readonly band = new Map<number, readonly [number, number]>();
  private readonly positions = new Map<string, Position>();
  private readonly holdings = new Map<number, Holding>();
  private readonly books = new Map<number, ModelBook>();
  private realised = 0;
  private holdingsCost = 0;

  constructor(
    readonly instruments: readonly ModelInstrument[],
    readonly openingUnits: number,
  ) {
    for (const i of instruments) {
      this.ltp.set(i.token, i.closeUnits);
      this.close.set(i.token, i.closeUnits);
      this.band.set(i.token, PaperModel.bandAround(i, i.closeUnits));
      this.books.set(i.token, { ltp: i.closeUnits, taken: { buy: [], sell: [] } });
    }
  }

  // ------------------------------------------------------------------ the rules of docs/api.md

  /**
   * The day's band (§Matching): ±20% of the close for F&O stocks, ±10% for other equities and
   * futures, rounded inward to the tick (never below one tick); options from one tick to
   * 4 × the close + ₹200, rounded up to a tick.
   */
  static bandAround(i: ModelInstrument, close: number): readonly [number, number] {
    const tick = units(i.tickSize);
    if (isOption(i)) return [tick, ceilDiv(4 * close + 200 * UNITS, tick) * tick];
    const pct = i.instrumentType === 'EQ' && i.fnoStock ? 20 : 10;
    const lo = ceilDiv(close * (100 - pct), 100 * tick) * tick;
    const hi = Math.floor((close * (100 + pct)) / (100 * tick)) * tick;
    return [Math.max(tick, lo), hi];
  }

  /**
   * B, the best level's base size in lots (§The order book): equities by value (₹3,00,000 of
   * shares, ₹50,000 when thin), futures a freeze ÷ lot ÷ 8, options ÷ 4 (÷ 16 when thin).
   */
  static baseLots(i: ModelInstrument, ltp: number): number {
    if (i.instrumentType === 'EQ') return Math.max(1, Math.floor(((i.thin ? 50_000 : 3_00_000) * UNITS) / ltp));
    const lots = i.freezeQuantity / i.lotSize;
    return Math.max(1, Math.floor(lots / (i.instrumentType === 'FUT' ? 8 : i.thin ? 16 : 4)));
  }

  /**
   * The fresh levels of one side around last price `ltp` (§The order book): level k a half-spread
   * plus k − 1 ticks away, left out at or below zero or outside the band; quantity lot × max(1,
   * round(B × (1 + (k − 1) ÷ 4) × j)), j = 0.5 + FNV-1a("TOKEN:L:SIDE:k") ÷ 2³². Index n of the
   * result is level k = n + 1 only while nothing is left out; the model keeps k with each level.
   */
  private levels(i: ModelInstrument, ltp: number, side: 'buy' | 'sell'): Array<Level & { k: number }> {
    const tick = units(i.tickSize);
    const half = i.thin ? 2 : 1;
    const [lo, hi] = this.band.get(i.token) as readonly [number, number];
    const out: Array<Level & { k: number }> = [];
    for (let k = 1; k <= 10; k++) {
      const price = side === 'buy' ? ltp - (half + k - 1) * tick : ltp + (half + k - 1) * tick;
      if (price < tick || price < lo || price > hi) continue;
      const j = 0.5 + fnv1a32(`${i.token}:${ltp}:${side}:${k}`) / 4294967296;
      out.push({
        k,
        price,
        quantity: i.lotSize * Math.max(1, Math.round(PaperModel.baseLots(i, ltp) * (1 + (k - 1) / 4) * j)),
      });
    }
    return out;
  }

  /**
   * Takes up to `want` from `side` of the instrument's book as far as `limit` allows (§Matching,
   * "Taking the book"), in whole lots, level by level from the best; returns the fills.
   */
  private takeBook(i: ModelInstrument, side: 'buy' | 'sell', want: number, limit: number | null): Level[] {
    const book = this.books.get(i.token) as ModelBook;
    const taken = book.taken[side];
    const fills: Level[] = [];
    let left = want;
    for (const l of this.levels(i, book.ltp, side)) {
      if (left <= 0) break;
      if (limit !== null && (side === 'sell' ? l.price > limit : l.price < limit)) break;
      const rest = l.quantity - (taken[l.k] ?? 0);
      const q = Math.min(left, Math.floor(rest / i.lotSize) * i.lotSize);
      if (q <= 0) continue;
      taken[l.k] = (taken[l.k] ?? 0) + q;
      left -= q;
      fills.push({ price: l.price, quantity: q });
    }
    return fills;
  }

  /** Leverage (§Margins): CNC 1x, option buys 1x, else MIS 5x and NRML 4x. */
  static leverage(product: Product, i: ModelInstrument, side: TransactionType): number {
    if (product === 'CNC') return 1;
    if (isOption(i) && side === 'BUY') return 1;
    return product === 'MIS' ? 5 : 4;
  }

  /**
   * The margin to block for the unfilled part of an order (§Margins): its value at the limit
   * (else trigger, else LTP) × multiplier over the leverage, for the part that adds exposure. A
   * CNC buy adds all of it, a CNC sell nothing. An MIS/NRML order against the position is free
   * up to |net| less what working orders on its side placed before it (`before`, an index into
   * the placement list) still have to fill.
   */
  private blockFor(s: MarginSubject, before: number): number {
    let adding = s.qty;
    if (s.product === 'CNC') adding = s.side === 'BUY' ? s.qty : 0;
    else {
      const net = this.positions.get(`${s.inst.token}:${s.product}`)?.net ?? 0;
      if ((s.side === 'BUY' && net < 0) || (s.side === 'SELL' && net > 0)) {
        let ahead = 0;
        for (const w of this.orders.slice(0, before)) {
          if (working(w) && w.inst === s.inst && w.product === s.product && w.side === s.side) ahead += pending(w);
        }
        adding = Math.max(0, s.qty - Math.max(0, Math.abs(net) - ahead));
      }
    }
    const value = PaperModel.value(s.inst, adding, this.marginPrice(s));
    return ceilDiv(value, PaperModel.leverage(s.product, s.inst, s.side));
  }

  /** The price margin is judged at: the limit, else the trigger, else the LTP. */
  private marginPrice(s: MarginSubject): number {
    if (hasLimit(s.type) && s.price !== null) return s.price;
    return s.trigger ?? this.lastPrice(s.inst.token);
  }

  /**
   * Shares a CNC sell may still take (§Holdings, T+1): the holdings plus today's CNC position,
   * less what working CNC sells other than `except` have claimed.
   */
  private freeToSell(token: number, except?: ModelOrder): number {
    let claimed = 0;
    for (const o of this.orders) {
      if (o !== except && working(o) && o.inst.token === token && o.product === 'CNC' && o.side === 'SELL') {
        claimed += pending(o);
      }
    }
    const today = Math.max(0, this.positions.get(`${token}:CNC`)?.net ?? 0);
    return (this.holdings.get(token)?.quantity ?? 0) + today - claimed;
  }

  private outsideBand(token: number, p: number | null): boolean {
    const [lo, hi] = this.band.get(token) as readonly [number, number];
    return p !== null && (p < lo || p > hi);
  }

  // ------------------------------------------------------------------ reads

  /** The middle of the instrument's band on its tick grid: both sides of the book are there (§Circuit limits). */
  middleOfBand(token: number): number {
    const [lo, hi] = this.band.get(token) as readonly [number, number];
    const tick = units(this.instrument(token).tickSize);
    return Math.round((lo + hi) / 2 / tick) * tick;
  }

  lastPrice(token: number): number {
    return this.ltp.get(token) as number;
  }

  /** A traded instrument by token (a fill or a holding names only the token). */
  instrument(token: number): ModelInstrument {
    return this.instruments.find((x) => x.token === token) as ModelInstrument;
  }

  order(id: string): ModelOrder | undefined {
    return this.byId.get(id);
  }

  cashUnits(): number {
    return this.openingUnits + this.realised - this.holdingsCost;
  }

  usedMarginUnits(): number {
    let used = 0;
    for (const o of this.orders) if (working(o)) used += o.block;
    for (const p of this.positions.values()) used += this.positionMargin(p);
    return used;
  }

  private positionMargin(p: Position): number {
    if (p.net === 0) return 0;
    return ceilDiv(p.cost, PaperModel.leverage(p.product, p.inst, p.net > 0 ? 'BUY' : 'SELL'));
  }

  /** What `quantity` of an instrument is worth at `price`, in units. */
  private static value(i: ModelInstrument, quantity: number, price: number): number {
    return quantity * price * i.multiplier;
  }

  /** Everything a client can read, in units: what GET /orders, /trades, /positions, /holdings and /funds must say. */
  snapshot(): ModelSnapshot {
    let unrealised = 0;
    const positions = [...this.positions.values()].map((p) => {
      const ltp = this.lastPrice(p.inst.token);
      const close = this.close.get(p.inst.token) as number;
      const mark = PaperModel.value(p.inst, p.net, ltp);
      const open = p.net > 0 ? mark - p.cost : p.net < 0 ? p.cost + mark : 0;
      unrealised += open;
      // The carried quantity sits in the buy (long) or sell (short) totals at its cost.
      const carriedLong = p.overnight > 0 ? p.carriedCost : 0;
      const carriedShort = p.overnight < 0 ? p.carriedCost : 0;
      const pnl = p.realised + open;
      // The day's P&L: the total less what the carried quantity had made by the previous close.
      const carriedToClose = PaperModel.value(p.inst, p.overnight, close) - carriedLong + carriedShort;
      return {
        token: p.inst.token,
        product: p.product,
        quantity: p.net,
        overnight: p.overnight,
        multiplier: p.inst.multiplier,
        average: p.net === 0 ? 0 : roundDiv(p.cost, Math.abs(p.net) * p.inst.multiplier),
        close,
        last: ltp,
        bought: p.dayBought + Math.max(0, p.overnight),
        boughtValue: p.dayBoughtValue + carriedLong,
        sold: p.daySold + Math.max(0, -p.overnight),
        soldValue: p.daySoldValue + carriedShort,
        dayBought: p.dayBought,
        dayBoughtValue: p.dayBoughtValue,
        daySold: p.daySold,
        daySoldValue: p.daySoldValue,
        realised: p.realised,
        unrealised: open,
        pnl,
        m2m: pnl - carriedToClose,
      };
    });
    const used = this.usedMarginUnits();
    return {
      orders: this.orders.map((o) => ({
        id: o.id,
        status: o.status,
        type: o.type,
        validity: o.validity,
        quantity: o.quantity,
        filled: o.filled,
        pending: pending(o),
        cancelled: o.cancelled,
        price: o.price,
        trigger: o.trigger,
        average: o.filled === 0 ? 0 : roundDiv(o.value, o.filled),
      })),
      trades: this.trades.map((t) => ({ ...t })),
      positions,
      holdings: [...this.holdings.entries()].map(([token, h]) => {
        const i = this.instrument(token);
        return {
          token,
          quantity: h.quantity,
          average: roundDiv(h.cost, h.quantity * i.multiplier),
          pnl: PaperModel.value(i, h.quantity, this.lastPrice(token)) - h.cost,
        };
      }),
      funds: {
        cash: this.cashUnits(),
        used,
        available: this.cashUnits() - used,
        realised: this.realised,
        unrealised,
      },
    };
  }

  // ------------------------------------------------------------------ commands

  /** The instrument a request names, or the 400 its rule violations make (§Orders, checks). */
  private judge(r: ModelOrderRequest): ModelInstrument | ModelReply {
    const i = this.instruments.find((x) => x.exchange === r.exchange && x.tradingsymbol === r.tradingsymbol);
    if (!i) return { status: 400, fields: ['tradingsymbol'] };
    const violations = validateOrder(
      {
        exchange: r.exchange,
        transactionType: r.transaction_type,
        quantity: r.quantity,
        orderType: r.order_type,
        product: r.product,
        validity: r.validity,
        price: r.price,
        triggerPrice: r.trigger_price,
      },
      i,
    );
    return violations.length > 0 ? { status: 400, fields: violations.map((v) => wireName(v.field)) } : i;
  }

  /** POST /margins/orders: what placing `r` now would block, and the whole order's value (§Margins). */
  quote(r: ModelOrderRequest): ModelReply & { total?: number; orderValue?: number; leverage?: number } {
    const i = this.judge(r);
    if (!('token' in i)) return i;
    const s: MarginSubject = {
      inst: i,
      side: r.transaction_type,
      product: r.product,
      type: r.order_type,
      price: hasLimit(r.order_type) && r.price ? units(r.price) : null,
      trigger: hasTrigger(r.order_type) && r.trigger_price ? units(r.trigger_price) : null,
      qty: r.quantity,
    };
    return {
      status: 200,
      total: this.blockFor(s, this.orders.length),
      orderValue: PaperModel.value(i, r.quantity, this.marginPrice(s)),
      leverage: PaperModel.leverage(r.product, i, r.transaction_type),
    };
  }

  /** POST /orders. `id` names the order the broker created (the model does not predict ids). */
  place(r: ModelOrderRequest, id: string): ModelReply {
    const i = this.judge(r);
    if (!('token' in i)) return i;
    const o: ModelOrder = {
      id,
      inst: i,
      side: r.transaction_type,
      product: r.product,
      quantity: r.quantity,
      filled: 0,
      cancelled: 0,
      type: r.order_type,
      validity: r.validity,
      price: hasLimit(r.order_type) && r.price ? units(r.price) : null,
      trigger: hasTrigger(r.order_type) && r.trigger_price ? units(r.trigger_price) : null,
      status: 'OPEN',
      block: 0,
      value: 0,
    };
    this.orders.push(o);
    this.byId.set(id, o);
    // Every working order is earlier than a new one.
    const need = this.blockFor({ ...o, qty: o.quantity }, this.orders.length - 1);
    const rejected =
      this.outsideBand(i.token, o.price) ||
      this.outsideBand(i.token, o.trigger) ||
      (o.product === 'CNC' && o.side === 'SELL' && this.freeToSell(i.token, o) < o.quantity) ||
      // An exit needs no margin, so a shortfall never refuses one (§Margins).
      (need > 0 && need > this.cashUnits() - this.usedMarginUnits());
    if (rejected) {
      o.cancelled = o.quantity;
      o.status = 'REJECTED';
      return { status: 201 };
    }
    o.block = need;
    o.status = hasTrigger(o.type) ? 'TRIGGER PENDING' : 'OPEN';
    this.arrive(o);
    return { status: 201 };
  }

  /** PATCH /orders/{id}. */
  modify(id: string, c: ModelOrderChanges): ModelReply {
    const o = this.byId.get(id);
    if (!o) return { status: 404 };
    if (!working(o)) return { status: 409 };
    const type = c.order_type ?? o.type;
    const given = (p: number | null | undefined): number | null | undefined =>
      p === undefined ? undefined : p === null || p === 0 ? null : units(p);
    const price = given(c.price) !== undefined ? (given(c.price) as number | null) : hasLimit(type) ? o.price : null;
    const trigger =
      given(c.trigger_price) !== undefined
        ? (given(c.trigger_price) as number | null)
        : hasTrigger(type)
          ? o.trigger
          : null;
    const quantity = c.quantity ?? o.quantity;
    const validity = c.validity ?? o.validity;
    const fields = validateOrder(
      {
        exchange: o.inst.exchange,
        transactionType: o.side,
        quantity,
        orderType: type,
        product: o.product,
        validity,
        price: price === null ? null : price / UNITS,
        triggerPrice: trigger === null ? null : trigger / UNITS,
      },
      o.inst,
    ).map((v) => wireName(v.field));
    if (quantity <= o.filled && !fields.includes('quantity')) fields.push('quantity');
    if (fields.length > 0) return { status: 400, fields };
    if (this.outsideBand(o.inst.token, price)) return { status: 400, fields: ['price'] };
    if (this.outsideBand(o.inst.token, trigger)) return { status: 400, fields: ['trigger_price'] };
    const rest = quantity - o.filled;
    if (o.product === 'CNC' && o.side === 'SELL' && this.freeToSell(o.inst.token, o) < rest) {
      return { status: 400, fields: ['quantity'] };
    }
    // A modified order keeps its place in time: only orders placed before it are ahead.
    const need = this.blockFor(
      { inst: o.inst, side: o.side, product: o.product, type, price, trigger, qty: rest },
      this.orders.indexOf(o),
    );
    const available = this.cashUnits() - this.usedMarginUnits();
    if (need > o.block && need - o.block > available) {
      return { status: 400, fields: ['quantity'], code: 'insufficient_margin' };
    }
    const wasStop = hasTrigger(o.type);
    o.quantity = quantity;
    o.type = type;
    o.validity = validity;
    o.price = price;
    o.trigger = trigger;
    o.block = need;
    if (!hasTrigger(type)) o.status = 'OPEN';
    else if (!wasStop) o.status = 'TRIGGER PENDING';
    this.arrive(o);
    return { status: 200 };
  }

  /** DELETE /orders/{id}: idempotent on CANCELLED, 409 on COMPLETE/REJECTED. */
  cancel(id: string): ModelReply {
    const o = this.byId.get(id);
    if (!o) return { status: 404 };
    if (o.status === 'CANCELLED') return { status: 200 };
    if (!working(o)) return { status: 409 };
    this.cancelRest(o);
    return { status: 200 };
  }

  /**
   * A price event (the control interface, §Matching): a price outside the band starts a new band
   * around it, the book is rebuilt around the price, then, oldest first, stops whose trigger is
   * crossed trigger, resting limits the price reached fill whole at their limit, and the orders
   * that take the book (MARKET remainders, stops just triggered) take it in price-time priority.
   */
  setPrice(token: number, p: number): void {
    const i = this.instrument(token);
    if (this.outsideBand(token, p)) this.band.set(token, PaperModel.bandAround(i, p));
    this.ltp.set(token, p);
    this.books.set(token, { ltp: p, taken: { buy: [], sell: [] } });
    const takers: ModelOrder[] = [];
    for (const o of this.orders) {
      if (o.inst.token !== token || !working(o)) continue;
      if (o.status === 'TRIGGER PENDING') {
        if (this.crossed(o)) {
          o.status = 'OPEN';
          takers.push(o);
        }
        continue;
      }
      if (!hasLimit(o.type)) takers.push(o);
      else if (o.side === 'BUY' ? p <= (o.price as number) : p >= (o.price as number))
        this.fill(o, o.price as number, pending(o));
    }
    // MARKET first, then the better limit, then the older order (§Matching, priority).
    const rank = (o: ModelOrder): number =>
      !hasLimit(o.type) ? -Infinity : o.side === 'BUY' ? -(o.price as number) : (o.price as number);
    takers.sort((a, b) => rank(a) - rank(b) || this.orders.indexOf(a) - this.orders.indexOf(b));
    for (const o of takers) if (o.status === 'OPEN') this.take(o);
  }

  /**
   * The trading day ends and the next begins (§The close, §Margins, "The day"): at each
   * exchange's close, in the order the closes come (NSE, BSE, NFO, BFO at 15:30, CDS at 17:00,
   * MCX at 23:30), its working orders are cancelled and its MIS positions squared off at the last
   * price by system orders, which get `systemIds` in turn; then each price becomes the previous
   * close with a band around it, flat positions drop out, CNC positions settle into holdings, open
   * ones carry over with their net quantity at its cost, today's totals and realised P&L starting
   * from zero. Holdings and the account's realised P&L carry on.
   */
  nextDay(systemIds: readonly string[]): void {
    const ids = [...systemIds];
    for (const exchange of ['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'MCX'] as const) {
      for (const o of this.orders) if (o.inst.exchange === exchange && working(o)) this.cancelRest(o);
      for (const p of [...this.positions.values()]) {
        if (p.inst.exchange !== exchange || p.product !== 'MIS' || p.net === 0) continue;
        const o: ModelOrder = {
          id: ids.shift() ?? 'a square-off the broker did not make',
          inst: p.inst,
          side: p.net > 0 ? 'SELL' : 'BUY',
          product: 'MIS',
          quantity: Math.abs(p.net),
          filled: 0,
          cancelled: 0,
          type: 'MARKET',
          validity: 'DAY',
          price: null,
          trigger: null,
          status: 'OPEN',
          block: 0,
          value: 0,
        };
        this.orders.push(o);
        this.byId.set(o.id, o);
        this.fill(o, this.lastPrice(p.inst.token), o.quantity);
      }
    }
    for (const [token, p] of this.ltp) {
      this.close.set(token, p);
      this.band.set(token, PaperModel.bandAround(this.instrument(token), p));
      this.books.set(token, { ltp: p, taken: { buy: [], sell: [] } });
    }
    for (const [key, p] of this.positions) {
      if (p.product === 'CNC') {
        if (p.net > 0) {
          const h = this.holdings.get(p.inst.token) ?? { quantity: 0, cost: 0 };
          this.holdings.set(p.inst.token, h);
          h.quantity += p.net;
          h.cost += p.cost;
          this.holdingsCost += p.cost;
        }
        this.positions.delete(key);
        continue;
      }
      if (p.net === 0) {
        this.positions.delete(key);
        continue;
      }
      Object.assign(p, {
        overnight: p.net,
        carriedCost: p.cost,
        realised: 0,
        dayBought: 0,
        dayBoughtValue: 0,
        daySold: 0,
        daySoldValue: 0,
      });
    }
  }

  // ------------------------------------------------------------------ matching and the books

  private cancelRest(o: ModelOrder): void {
    o.cancelled += pending(o);
    o.block = 0;
    o.status = 'CANCELLED';
  }

  /** Whether the last price has crossed a waiting stop's trigger. */
  private crossed(o: ModelOrder): boolean {
    const ltp = this.lastPrice(o.inst.token);
    return o.side === 'BUY' ? ltp >= (o.trigger as number) : ltp <= (o.trigger as number);
  }

  /**
   * An order reaching the market, placed or modified (§Matching): a stop whose trigger is crossed
   * triggers, an OPEN order takes the book as far as it can, an IOC cancels what is left.
   */
  private arrive(o: ModelOrder): void {
    if (o.status === 'TRIGGER PENDING' && this.crossed(o)) o.status = 'OPEN';
    if (o.status === 'OPEN') this.take(o);
    if (o.validity === 'IOC' && working(o)) this.cancelRest(o);
  }

  /** Takes the other side of the book, within the order's limit if it has one. */
  private take(o: ModelOrder): void {
    const limit = hasLimit(o.type) ? o.price : null;
    for (const f of this.takeBook(o.inst, o.side === 'BUY' ? 'sell' : 'buy', pending(o), limit)) {
      this.fill(o, f.price, f.quantity);
    }
  }

  /** One fill: the order's block shrinks in proportion (the last fill releases it all), the trade books. */
  private fill(o: ModelOrder, price: number, q: number): void {
    const left = pending(o);
    o.block = q === left ? 0 : o.block - mulDiv(o.block, q, left, 'half-up');
    o.filled += q;
    o.value += q * price;
    o.status = pending(o) === 0 ? 'COMPLETE' : 'OPEN';
    const t: ModelTrade = { orderId: o.id, token: o.inst.token, side: o.side, product: o.product, quantity: q, price };
    this.trades.push(t);
    if (o.product === 'CNC' && o.side === 'SELL') this.deliver(o.inst, t);
    else this.book(o.inst, t);
  }

  /**
   * A CNC sell (§Holdings, T+1): it closes today's CNC position first (like any position), and
   * what is left sells out of holdings, realising against their average cost.
   */
  private deliver(i: ModelInstrument, t: ModelTrade): void {
    const today = Math.max(0, this.positions.get(`${i.token}:CNC`)?.net ?? 0);
    const closing = Math.min(today, t.quantity);
    if (closing > 0) this.book(i, { ...t, quantity: closing });
    if (t.quantity > closing) this.settle({ ...t, quantity: t.quantity - closing });
  }

  /** A CNC sell out of holdings: the value comes back, the difference to the average cost is realised. */
  private settle(t: ModelTrade): void {
    const h = this.holdings.get(t.token) ?? { quantity: 0, cost: 0 };
    const value = PaperModel.value(this.instrument(t.token), t.quantity, t.price);
    const part = mulDiv(h.cost, t.quantity, h.quantity, 'half-up');
    h.quantity -= t.quantity;
    h.cost -= part;
    this.holdingsCost -= part;
    this.realised += value - part;
    if (h.quantity === 0) this.holdings.delete(t.token);
  }

  /** A position fill (MIS, NRML, a CNC buy or a sell of today's CNC buys) moves the net position; closing quantity realises against the average cost. */
  private book(i: ModelInstrument, t: ModelTrade): void {
    const key = `${i.token}:${t.product}`;
    const p: Position = this.positions.get(key) ?? {
      inst: i,
      product: t.product,
      net: 0,
      cost: 0,
      realised: 0,
      overnight: 0,
      carriedCost: 0,
      dayBought: 0,
      dayBoughtValue: 0,
      daySold: 0,
      daySoldValue: 0,
    };
    this.positions.set(key, p);
    const dir = t.side === 'BUY' ? 1 : -1;
    if (dir > 0) {
      p.dayBought += t.quantity;
      p.dayBoughtValue += PaperModel.value(i, t.quantity, t.price);
    } else {
      p.daySold += t.quantity;
      p.daySoldValue += PaperModel.value(i, t.quantity, t.price);
    }
    let q = t.quantity;
    if (p.net * dir < 0) {
      const closing = Math.min(q, Math.abs(p.net));
      const part = mulDiv(p.cost, closing, Math.abs(p.net), 'half-up');
      const proceeds = PaperModel.value(i, closing, t.price);
      const pnl = p.net > 0 ? proceeds - part : part - proceeds;
      p.realised += pnl;
      this.realised += pnl;
      p.cost -= part;
      p.net += dir * closing;
      q -= closing;
    }
    p.net += dir * q;
    p.cost += PaperModel.value(i, q, t.price);
  }
}

/** What the model says a client must read. All money in units of ₹0.0001. */
export interface ModelSnapshot {
  readonly orders: ReadonlyArray<{
    id: string;
    status: OrderStatus;
    type: OrderType;
    validity: Validity;
    quantity: number;
    filled: number;
    pending: number;
    cancelled: number;
    price: number | null;
    trigger: number | null;
    average: number;
  }>;
  readonly trades: readonly ModelTrade[];
  readonly positions: ReadonlyArray<{
    token: number;
    product: Product;
    quantity: number;
    overnight: number;
    multiplier: number;
    average: number;
    close: number;
    last: number;
    bought: number;
    boughtValue: number;
    sold: number;
    soldValue: number;
    dayBought: number;
    dayBoughtValue: number;
    daySold: number;
    daySoldValue: number;
    realised: number;
    unrealised: number;
    pnl: number;
    m2m: number;
  }>;
  readonly holdings: ReadonlyArray<{ token: number; quantity: number; average: number; pnl: number }>;
  readonly funds: { cash: number; used: number; available: number; realised: number; unrealised: number };
}

/** The rules speak camelCase; a 400 names the wire field. */
function wireName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
