import { deepStrictEqual } from 'node:assert/strict';
import fc from 'fast-check';
import type { Exchange, InstrumentType } from '@shared/domain/instrument';
import type { OrderType, Product, TransactionType } from '@shared/domain/order';
import type { BrokerDriver, DriverBody } from './broker-driver';
import {
  type ModelInstrument,
  type ModelOrderChanges,
  type ModelOrderRequest,
  type ModelReply,
  type ModelSnapshot,
  type PaperModel,
  units,
} from './reference-model';

/**
 * The model-based run behind paper-property.test.ts: the command generator, and one sequence
 * played against a broker (through a BrokerDriver) and the reference model side by side.
 *
 * After every command the broker must agree with the model (reference-model.ts) on the reply's
 * status (and the fields a 400 names), every order's state, quantities, prices and average
 * price, every fill, every position with its values and P&L across the turn of the IST day, the
 * holdings, the funds and the margin calculator's quotes. Independently of
 * the model, what a trader relies on is checked on the broker's own replies: no fill worse
 * than the limit, no stop filling before its trigger, IOC never resting, nothing filling once
 * done, fills on the tape adding up to each order's filled quantity. Every sequence ends by
 * cancelling everything and closing every position and holding: then no margin may stay used
 * and the cash must have moved by exactly the fills' values (price × quantity × multiplier).
 *
 * Checks throw plain errors (assert's diff for the snapshot), so the run is cheap enough for
 * ten thousand sequences and needs no test runner.
 */

// ---------------------------------------------------------------------------- the instruments

/** An instrument row as GET /instruments lists it (the fields the test uses). */
export interface Row {
  instrument_token: number;
  exchange: Exchange;
  tradingsymbol: string;
  name: string;
  instrument_type: InstrumentType;
  lot_size: number;
  tick_size: number;
  freeze_quantity: number;
  multiplier: number;
  expiry: string | null;
  last_price: number;
}

/**
 * The instruments the sequences trade, chosen to cover every rule that differs between them:
 * an F&O stock (±20% band, big touch), a sub-₹100 stock on a ₹0.01 tick (±10%), a NIFTY call
 * (option band, 1x margin on buys, 10-lot touch), a stock future (lot 1,600), a CDS future on
 * the ₹0.0025 tick (×1,000) and an MCX GOLDM future (×10), so every value, margin and P&L has a
 * multiplier other than 1 somewhere. `maxLots` reaches past the touch and sometimes past the
 * freeze limit and the margin.
 */
const PICKS: ReadonlyArray<{ pick: (r: Row) => boolean; maxLots: number; near?: number }> = [
  { pick: (r) => r.exchange === 'NSE' && r.tradingsymbol === 'ITC', maxLots: 9000 },
  { pick: (r) => r.exchange === 'NSE' && r.tradingsymbol === 'YESBANK', maxLots: 120_000 },
  // The call whose premium is nearest ₹150 (expiries, hence premiums, move with the date).
  { pick: (r) => r.exchange === 'NFO' && r.name === 'NIFTY' && r.instrument_type === 'CE', maxLots: 30, near: 150 },
  { pick: (r) => r.exchange === 'NFO' && r.name === 'ITC' && r.instrument_type === 'FUT', maxLots: 14 },
  { pick: (r) => r.exchange === 'CDS' && r.name === 'USDINR', maxLots: 40 },
  { pick: (r) => r.exchange === 'MCX' && r.name === 'GOLDM' && r.instrument_type === 'FUT', maxLots: 60 },
];

/** The rows of the latest expiry among `rows` (a contract that cannot expire within a sequence's days). */
function latestSeries(rows: readonly Row[]): Row[] {
  const last = rows.reduce<string | null>(
    (m, r) => (r.expiry !== null && (m === null || r.expiry > m) ? r.expiry : m),
    null,
  );
  return rows.filter((r) => r.expiry === last);
}

/** The model's view of the traded instruments, from the broker's instrument rows (its one input from the broker). */
export function modelInstruments(rows: readonly Row[]): ModelInstrument[] {
  const stock = (name: string): boolean =>
    rows.some((r) => r.exchange === 'NSE' && r.instrument_type === 'EQ' && r.tradingsymbol === name);
  return PICKS.map(({ pick, near }) => {
    // Derivatives of the furthest expiry, which outlives every sequence (§The close: expiries settle).
    const fits = latestSeries(rows.filter(pick));
    const r =
      near === undefined
        ? fits[0]
        : fits.reduce<Row | undefined>(
            (best, x) => (!best || Math.abs(x.last_price - near) < Math.abs(best.last_price - near) ? x : best),
            undefined,
          );
    if (!r) throw new Error('an instrument the property test trades is missing from the universe');
    return {
      token: r.instrument_token,
      exchange: r.exchange,
      tradingsymbol: r.tradingsymbol,
      instrumentType: r.instrument_type,
      lotSize: r.lot_size,
      tickSize: r.tick_size,
      freezeQuantity: r.freeze_quantity,
      multiplier: r.multiplier,
      closeUnits: units(r.last_price),
      fnoStock:
        r.instrument_type === 'EQ' &&
        rows.some((f) => f.exchange === 'NFO' && f.instrument_type === 'FUT' && f.name === r.tradingsymbol),
      // §The order book: BSE and non-F&O equities, stock options and MCX options have thin books.
      thin:
        r.instrument_type === 'EQ'
          ? r.exchange === 'BSE' || !rows.some((f) => f.instrument_type === 'FUT' && f.name === r.tradingsymbol)
          : (r.instrument_type === 'CE' || r.instrument_type === 'PE') && (r.exchange === 'MCX' || stock(r.name)),
    };
  });
}

// ---------------------------------------------------------------------------- commands

/**
 * A price relative to another: some ticks away, or a jump of some percent. For an order's limit
 * or trigger it counts away from the market on the side where the order waits (below the LTP
 * for a buy limit, above it for a buy stop); a negative one is already crossed.
 */
type PriceSpec = { readonly ticks: number } | { readonly pct: number };

/** MIS, CNC, NRML, or the carry product the instrument takes (CNC on equity, NRML on derivatives). */
type ProductPick = Product | 'CARRY';

/** How an order prices itself: type, validity, limit, trigger and an SL's slack. */
interface Pricing {
  readonly type: OrderType;
  readonly ioc: boolean;
  readonly price: PriceSpec;
  readonly trigger: PriceSpec;
  /** Ticks an SL's limit lies beyond its trigger (negative: on the wrong side, a 400). */
  readonly slack: number;
  /** Ask POST /margins/orders for the same body first. */
  readonly quote: boolean;
}

/**
 * One thing a trader or the market does: place, exit (part of) a position or holding, modify,
 * cancel, move a price, or the IST day turns.
 */
export type Cmd =
  | (Pricing & {
      readonly kind: 'place';
      readonly inst: number;
      readonly side: TransactionType;
      readonly product: ProductPick;
      readonly lots: number;
      /** One share/unit more than whole lots (a 400 where the lot is above 1). */
      readonly odd: boolean;
    })
  | (Pricing & {
      /**
       * An order against an open position (same product) or a holding (CNC sell): `quarters` of
       * its quantity, so exits meet the earlier working exits that decide their margin, and
       * some go past the position into the other side (or past the holding).
       */
      readonly kind: 'exit';
      readonly pick: number;
      readonly quarters: number;
    })
  | {
      readonly kind: 'modify';
      /** Which order: among the working ones, or (`any`) among all, for the 409s. */
      readonly pick: number;
      readonly any: boolean;
      readonly lots?: number;
      readonly price?: PriceSpec | null;
      readonly trigger?: PriceSpec | null;
      readonly type?: OrderType;
      readonly ioc?: boolean;
      readonly slack?: number;
    }
  | { readonly kind: 'cancel'; readonly pick: number; readonly any: boolean; readonly ghost: boolean }
  | { readonly kind: 'price'; readonly inst: number; readonly to: PriceSpec }
  | { readonly kind: 'day' };

const oneIn = (n: number): fc.Arbitrary<boolean> => fc.integer({ min: 1, max: n }).map((k) => k === 1);
/** A market move: some ticks either way, or now and then a jump (past the band, or a big loss). */
const move: fc.Arbitrary<PriceSpec> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ ticks: fc.integer({ min: -40, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ pct: fc.integer({ min: -45, max: 45 }) }) },
);
/** An order's limit or trigger: mostly waiting a few ticks away, sometimes crossed, rarely outside the band. */
const priceSpec: fc.Arbitrary<PriceSpec> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ ticks: fc.integer({ min: -8, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ pct: fc.integer({ min: -45, max: 45 }) }) },
);
const instIndex = fc.integer({ min: 0, max: PICKS.length - 1 });
/** Mostly a few lots; sometimes anything up to the instrument's range (past the touch, the margin, the freeze). */
const lotCount = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 120_000 }) },
);
/** Resting types more often than MARKET, so there are working orders to modify and cancel. */
const orderType = fc.constantFrom<OrderType>('MARKET', 'MARKET', 'LIMIT', 'LIMIT', 'LIMIT', 'SL', 'SL', 'SL-M', 'SL-M');

/** One kind of change at a time mostly (a modification a trader makes), sometimes several. */
const changes = fc.oneof(
  fc.record({ lots: lotCount }),
  fc.record({ price: priceSpec }),
  fc.record({ trigger: priceSpec }),
  fc.record({ price: priceSpec, trigger: priceSpec }),
  fc.record({ type: orderType, price: priceSpec, trigger: priceSpec, slack: fc.integer({ min: -2, max: 10 }) }),
  fc.record({ type: orderType }),
  fc.record({ ioc: fc.boolean() }),
  fc.record(
    {
      lots: lotCount,
      price: fc.option(priceSpec),
      trigger: fc.option(priceSpec),
      type: orderType,
      ioc: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
);

const pricing = {
  type: orderType,
  ioc: oneIn(4),
  price: priceSpec,
  trigger: priceSpec,
  slack: fc.integer({ min: -2, max: 10 }),
  quote: oneIn(4),
};

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      inst: instIndex,
      side: fc.constantFrom<TransactionType>('BUY', 'SELL'),
      product: fc.constantFrom<ProductPick>('MIS', 'MIS', 'CARRY', 'CARRY', 'CNC', 'NRML'),
      lots: lotCount,
      odd: oneIn(12),
      ...pricing,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('exit' as const),
      pick: fc.nat(),
      // Mostly part or all of it; sometimes past it.
      quarters: fc.constantFrom(1, 2, 2, 3, 4, 4, 4, 6, 8),
      ...pricing,
      type: fc.constantFrom<OrderType>('MARKET', 'LIMIT', 'LIMIT', 'LIMIT', 'SL', 'SL-M'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat(), oneIn(5), changes)
      .map(([pick, any, c]): Cmd => ({ kind: 'modify', pick, any, ...c })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      pick: fc.nat(),
      any: oneIn(4),
      ghost: oneIn(10),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('price' as const), inst: instIndex, to: move }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'day' as const }) },
);

/** `spec` away from `from` upwards (`dir` 1) or downwards (-1): on the grid, at least one tick, in units. */
function offset(spec: PriceSpec, i: ModelInstrument, from: number, dir: 1 | -1): number {
  const tick = units(i.tickSize);
  const p =
    'ticks' in spec ? from + dir * spec.ticks * tick : Math.round((from * (100 + dir * spec.pct)) / 100 / tick) * tick;
  return Math.max(tick, p);
}

/**
 * An order's limit and trigger in rupees: a limit waits below the LTP for a buy (above for a
 * sell), a stop above it; an SL's limit sits `slack` ticks beyond its trigger.
 */
function orderPrices(
  i: ModelInstrument,
  side: TransactionType,
  type: OrderType,
  ltp: number,
  price: PriceSpec | undefined,
  trigger: PriceSpec | undefined,
  slack: number,
  current: { price: number | null; trigger: number | null } = { price: null, trigger: null },
): { price?: number; trigger_price?: number } {
  const up: 1 | -1 = side === 'BUY' ? 1 : -1;
  const down: 1 | -1 = side === 'BUY' ? -1 : 1;
  const out: { price?: number; trigger_price?: number } = {};
  const trig = trigger === undefined ? current.trigger : offset(trigger, i, ltp, up);
  if (trigger !== undefined && trig !== null) out.trigger_price = trig / 10_000;
  if (price !== undefined) {
    const p = type === 'SL' && trig !== null ? offset({ ticks: slack }, i, trig, up) : offset(price, i, ltp, down);
    out.price = p / 10_000;
  }
  return out;
}

/** Whole lots from a generated count, within the instrument's range (small counts stay small). */
const lotsOf = (n: number, k: number): number => ((n - 1) % (PICKS[k]?.maxLots ?? 1)) + 1;

/** A POST /orders body for `quantity` of `i`, priced as `c` says relative to the LTP. */
function orderBody(
  i: ModelInstrument,
  side: TransactionType,
  product: Product,
  quantity: number,
  c: Pricing,
  ltp: number,
): ModelOrderRequest {
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transaction_type: side,
    quantity,
    order_type: c.type,
    product,
    validity: c.ioc ? 'IOC' : 'DAY',
    ...orderPrices(
      i,
      side,
      c.type,
      ltp,
      c.type === 'LIMIT' || c.type === 'SL' ? c.price : undefined,
      isStop(c.type) ? c.trigger : undefined,
      c.slack,
    ),
  };
}

// ---------------------------------------------------------------------------- one sequence

const WORKING = new Set(['OPEN', 'TRIGGER PENDING']);
const DONE = new Set(['COMPLETE', 'CANCELLED', 'REJECTED']);
const isStop = (t: string): boolean => t === 'SL' || t === 'SL-M';
/** An order id the broker never issued. */
const GHOST = '260999999999';

/** Deep equality of plain JSON-like values, without allocating (it runs after every command). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (Array.isArray(a)) {
    if (a.length !== (b as unknown[]).length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], (b as unknown[])[i])) return false;
    return true;
  }
  for (const k in x) if (!(k in y) || !same(x[k], y[k])) return false;
  for (const k in y) if (!(k in x)) return false;
  return true;
}

/**
 * A cheap assertion for the checks that run thousands of times per sequence; the message is
 * built only on failure.
 */
function ensure(ok: boolean, why: () => string): void {
  if (!ok) throw new Error(why());
}

/** The model's verdict and the broker's reply must match: status, and for a 400 the fields it names. */
function expectSameReply(got: { status: number; body: DriverBody }, want: ModelReply, where: string): void {
  ensure(
    got.status === want.status,
    () => `${where}: status ${got.status}, the model says ${want.status}: ${JSON.stringify(got.body)}`,
  );
  if (want.status === 400 && want.fields) {
    const named = new Set<string>((got.body.errors as Array<{ field: string }>).map((e) => e.field));
    const wanted = new Set(want.fields);
    ensure(
      named.size === wanted.size && [...named].every((f) => wanted.has(f)),
      () => `${where}: the 400 names ${[...named].join(', ')}, the model ${[...wanted].join(', ')}`,
    );
  }
  ensure(
    want.code === undefined || got.body.code === want.code,
    () => `${where}: code ${got.body.code}, not ${want.code}`,
  );
}

/** One account's life played on a broker and the model side by side, compared after each command. */
export class Sequence {
  private readonly ids: string[] = [];
  private prevOrders = new Map<string, DriverBody>();
  private prevTape: DriverBody[] = [];

  constructor(
    private readonly driver: BrokerDriver,
    private readonly model: PaperModel,
  ) {}

  /** Plays the commands, then winds the account down; throws at the first disagreement or broken promise. */
  async run(cmds: readonly Cmd[]): Promise<void> {
    await this.compare('start');
    for (const [n, c] of cmds.entries()) {
      const where = `step ${n} ${JSON.stringify(c)}`;
      // A refused command must change nothing; if it did, the next comparison (there is always
      // one: every sequence ends with the wind-down) shows it, so only accepted ones are read back.
      if (await this.apply(c, where)) await this.compare(where);
    }
    await this.windDown();
  }

  /** A working order (or, with `any`, any order) by index; an unknown id when there is none. */
  private choose(pick: number, any: boolean): string {
    const live = this.model.orders.filter((o) => WORKING.has(o.status)).map((o) => o.id);
    const from = any || live.length === 0 ? this.ids : live;
    return from.length > 0 ? (from[pick % from.length] as string) : GHOST;
  }

  /** Places an order on both; true when the broker created it. */
  private async place(body: ModelOrderRequest, where: string): Promise<boolean> {
    const r = await this.driver.call('POST', '/orders', body);
    const want = this.model.place(body, r.status === 201 ? String(r.body.order_id) : 'never-created');
    expectSameReply(r, want, `${where} POST /orders`);
    if (r.status !== 201) return false;
    this.ids.push(String(r.body.order_id));
    const status = this.model.order(String(r.body.order_id))?.status;
    ensure(
      r.body.status === status,
      () => `${where}: answered ${r.body.status} after matching, the model says ${status}`,
    );
    return true;
  }

  /** The order a place or exit command sends; none for an exit when nothing is open or held. */
  private bodyFor(c: Extract<Cmd, { kind: 'place' | 'exit' }>): ModelOrderRequest | null {
    const m = this.model;
    if (c.kind === 'place') {
      const i = m.instruments[c.inst] as ModelInstrument;
      const quantity = lotsOf(c.lots, c.inst) * i.lotSize + (c.odd ? 1 : 0);
      const carry = i.instrumentType === 'EQ' ? 'CNC' : 'NRML';
      return orderBody(i, c.side, c.product === 'CARRY' ? carry : c.product, quantity, c, m.lastPrice(i.token));
    }
    const snap = m.snapshot();
    const open = [
      ...snap.positions.filter((p) => p.quantity !== 0),
      ...snap.holdings.map((h) => ({ ...h, product: 'CNC' as const })),
    ];
    const p = open[c.pick % Math.max(1, open.length)];
    if (!p) return null;
    const i = m.instrument(p.token);
    const lots = Math.max(1, Math.round((Math.abs(p.quantity) * c.quarters) / 4 / i.lotSize));
    const side = p.quantity > 0 ? 'SELL' : 'BUY';
    return orderBody(i, side, p.product, lots * i.lotSize, c, m.lastPrice(i.token));
  }

  /** The margin calculator must quote what the model would block for the order now (nothing is created). */
  private async quote(body: ModelOrderRequest, where: string): Promise<void> {
    const r = await this.driver.call('POST', '/margins/orders', body);
    const want = this.model.quote(body);
    expectSameReply(r, want, `${where} POST /margins/orders`);
    if (r.status !== 200) return;
    const got = { total: units(r.body.margin.total), orderValue: units(r.body.margin.order_value) };
    ensure(
      got.total === want.total && got.orderValue === want.orderValue && r.body.margin.leverage === want.leverage,
      () => `${where}: quoted ${JSON.stringify(r.body.margin)}, the model ${JSON.stringify(want)} (units)`,
    );
  }

  /** Runs one command on both; true when the broker accepted it (2xx). */
  private async apply(c: Cmd, where: string): Promise<boolean> {
    const m = this.model;
    if (c.kind === 'place' || c.kind === 'exit') {
      const body = this.bodyFor(c);
      if (!body) return false;
      if (c.quote) await this.quote(body, where);
      return this.place(body, where);
    } else if (c.kind === 'day') {
      await this.driver.nextDay();
      // The close squares off MIS positions with orders of the broker's own: the model takes their ids.
      const known = new Set(this.ids);
      const all = (await this.driver.call('GET', '/orders')).body.orders as Array<{ order_id: string }>;
      const added = all.map((o) => String(o.order_id)).filter((id) => !known.has(id));
      this.ids.push(...added);
      this.model.nextDay(added);
      return true;
    } else if (c.kind === 'modify') {
      const id = this.choose(c.pick, c.any);
      const o = m.order(id);
      const changes: { -readonly [K in keyof ModelOrderChanges]: ModelOrderChanges[K] } = {};
      if (o) {
        const ltp = m.lastPrice(o.inst.token);
        const k = m.instruments.indexOf(o.inst);
        if (c.lots !== undefined) changes.quantity = lotsOf(c.lots, k) * o.inst.lotSize;
        const type = c.type ?? o.type;
        const prices = orderPrices(
          o.inst,
          o.side,
          type,
          ltp,
          c.price ?? undefined,
          c.trigger ?? undefined,
          c.slack ?? 2,
          o,
        );
        if (c.price !== undefined) changes.price = c.price === null ? null : prices.price;
        if (c.trigger !== undefined) changes.trigger_price = c.trigger === null ? null : prices.trigger_price;
        if (c.type !== undefined) changes.order_type = c.type;
        if (c.ioc !== undefined) changes.validity = c.ioc ? 'IOC' : 'DAY';
      }
      if (Object.keys(changes).length === 0) changes.quantity = o?.quantity ?? 1;
      const r = await this.driver.call('PATCH', `/orders/${id}`, changes);
      expectSameReply(r, m.modify(id, changes), `${where} PATCH ${id} ${JSON.stringify(changes)}`);
      return r.status === 200;
    } else if (c.kind === 'cancel') {
      const id = c.ghost ? GHOST : this.choose(c.pick, c.any);
      const r = await this.driver.call('DELETE', `/orders/${id}`);
      expectSameReply(r, m.cancel(id), `${where} DELETE ${id}`);
      return r.status === 200;
    }
    const i = m.instruments[c.inst] as ModelInstrument;
    await this.move(i, offset(c.to, i, m.lastPrice(i.token), 1) / 10_000, where);
    return true;
  }

  private async move(i: ModelInstrument, price: number, where: string): Promise<void> {
    const r = await this.driver.call('POST', '/_control/price', { instrument_token: i.token, last_price: price });
    ensure(r.status === 200, () => `${where}: moving the price answered ${r.status} ${JSON.stringify(r.body)}`);
    this.model.setPrice(i.token, units(price));
  }

  /** The broker's replies, read back in the model's terms. */
  private async read(): Promise<{ snapshot: ModelSnapshot; orders: DriverBody[]; tape: DriverBody[] }> {
    const get = async (path: string): Promise<DriverBody> => {
      const r = await this.driver.call('GET', path);
      ensure(r.status === 200, () => `GET ${path} answered ${r.status}`);
      return r.body;
    };
    const orders = (await get('/orders')).orders as DriverBody[];
    const tape = (await get('/trades')).trades as DriverBody[];
    const positions = (await get('/positions')).positions as DriverBody[];
    const holdings = (await get('/holdings')).holdings as DriverBody[];
    const funds = (await get('/funds')).funds;
    const priceOrNull = (p: number | null): number | null => (p === null ? null : units(p));
    const byKey = <T extends { token: number }>(a: T, b: T): number =>
      a.token - b.token || JSON.stringify(a).localeCompare(JSON.stringify(b));
    return {
      orders,
      tape,
      snapshot: {
        orders: orders.map((o) => ({
          id: o.order_id,
          status: o.status,
          type: o.order_type,
          validity: o.validity,
          quantity: o.quantity,
          filled: o.filled_quantity,
          pending: o.pending_quantity,
          cancelled: o.cancelled_quantity,
          price: priceOrNull(o.price),
          trigger: priceOrNull(o.trigger_price),
          average: units(o.average_price),
        })),
        trades: tape.map((t) => ({
          orderId: t.order_id,
          token: t.instrument_token,
          side: t.transaction_type,
          product: t.product,
          quantity: t.quantity,
          price: units(t.price),
        })),
        positions: positions
          .map((p) => ({
            token: p.instrument_token,
            product: p.product,
            quantity: p.quantity,
            overnight: p.overnight_quantity,
            multiplier: p.multiplier,
            average: units(p.average_price),
            close: units(p.close_price),
            last: units(p.last_price),
            bought: p.buy_quantity,
            boughtValue: units(p.buy_value),
            sold: p.sell_quantity,
            soldValue: units(p.sell_value),
            dayBought: p.day_buy_quantity,
            dayBoughtValue: units(p.day_buy_value),
            daySold: p.day_sell_quantity,
            daySoldValue: units(p.day_sell_value),
            realised: units(p.realised_pnl),
            unrealised: units(p.unrealised_pnl),
            pnl: units(p.pnl),
            m2m: units(p.m2m),
          }))
          .sort(byKey),
        holdings: holdings
          .map((h) => ({
            token: h.instrument_token,
            quantity: h.quantity,
            average: units(h.average_price),
            pnl: units(h.pnl),
          }))
          .sort(byKey),
        funds: {
          cash: units(funds.available_cash),
          used: units(funds.used_margin),
          available: units(funds.available_margin),
          realised: units(funds.realised_pnl),
          unrealised: units(funds.unrealised_pnl),
        },
      },
    };
  }

  /** The broker agrees with the model, and keeps every promise a trader relies on. */
  private async compare(where: string): Promise<void> {
    const { snapshot, orders, tape } = await this.read();
    const want = this.model.snapshot();
    const byKey = (a: { token: number; product?: string }, b: { token: number; product?: string }): number =>
      a.token - b.token || String(a.product).localeCompare(String(b.product));
    const expected = {
      ...want,
      positions: [...want.positions].sort(byKey),
      holdings: [...want.holdings].sort(byKey),
    };
    // One quick comparison per step; the per-part diff only when they differ.
    if (!same(snapshot, expected)) {
      for (const part of ['orders', 'trades', 'positions', 'holdings', 'funds'] as const) {
        deepStrictEqual(snapshot[part], expected[part], `${where}: ${part} (actual: the broker, expected: the model)`);
      }
    }
    this.traderChecks(orders, tape, where);
  }

  /** Checked on the broker's own replies, whatever the model says. */
  private traderChecks(orders: DriverBody[], tape: DriverBody[], where: string): void {
    const byId = new Map<string, DriverBody>(orders.map((o) => [o.order_id as string, o]));
    for (let n = 0; n < this.prevTape.length; n++) {
      const [was, is] = [this.prevTape[n], tape[n]];
      ensure(
        is !== undefined &&
          is.trade_id === was.trade_id &&
          is.order_id === was.order_id &&
          is.quantity === was.quantity &&
          is.price === was.price,
        () => `${where}: fill ${JSON.stringify(was)} on the tape became ${JSON.stringify(is)}`,
      );
    }
    const filledBy = new Map<string, number>();
    for (const t of tape) filledBy.set(t.order_id, (filledBy.get(t.order_id) ?? 0) + t.quantity);
    const firstFill = new Set<string>();
    for (const t of tape.slice(this.prevTape.length)) {
      const o = byId.get(t.order_id);
      const before = this.prevOrders.get(t.order_id);
      const what = (): string => `${where}: fill ${JSON.stringify(t)} of ${JSON.stringify(o)}`;
      ensure(o !== undefined, () => `${what()}: no such order`);
      ensure(!before || !DONE.has(before.status), () => `${what()}: it filled after it was ${before.status}`);
      const price = units(t.price);
      if (o.order_type === 'LIMIT' || o.order_type === 'SL') {
        const limit = units(o.price);
        ensure(o.transaction_type === 'BUY' ? price <= limit : price >= limit, () => `${what()}: worse than its limit`);
      }
      const waiting = !before || before.status === 'TRIGGER PENDING' || !isStop(before.order_type);
      if (isStop(o.order_type) && waiting && !firstFill.has(o.order_id)) {
        const trigger = units(o.trigger_price);
        ensure(
          o.transaction_type === 'BUY' ? price >= trigger : price <= trigger,
          () => `${what()}: filled before its trigger was crossed`,
        );
      }
      firstFill.add(o.order_id);
      ensure(o.status !== 'TRIGGER PENDING', () => `${what()}: filled yet still waiting for its trigger`);
    }
    for (const o of orders) {
      const what = (): string => `${where}: order ${JSON.stringify(o)}`;
      ensure(o.validity !== 'IOC' || !WORKING.has(o.status), () => `${what()}: an IOC order rests`);
      ensure((filledBy.get(o.order_id) ?? 0) === o.filled_quantity, () => `${what()}: its fills on the tape differ`);
      const before = this.prevOrders.get(o.order_id);
      if (!before) continue;
      ensure(!DONE.has(before.status) || o.status === before.status, () => `${what()}: left ${before.status}`);
      ensure(o.filled_quantity >= before.filled_quantity, () => `${what()}: filled quantity shrank`);
      ensure(o.cancelled_quantity >= before.cancelled_quantity, () => `${what()}: cancelled quantity shrank`);
    }
    this.prevOrders = byId;
    this.prevTape = tape;
  }

  /**
   * Cancel everything, close every position and sell every holding, then let the exits fill:
   * no margin may stay used, and the cash must have moved by exactly the fills.
   */
  private async windDown(): Promise<void> {
    const m = this.model;
    for (const o of m.orders.filter((x) => WORKING.has(x.status))) {
      const r = await this.driver.call('DELETE', `/orders/${o.id}`);
      expectSameReply(r, m.cancel(o.id), `wind-down DELETE ${o.id}`);
    }
    await this.compare('wind-down: cancelled every working order');
    const exits: ModelOrderRequest[] = [];
    const snap = m.snapshot();
    const exit = (i: ModelInstrument, side: TransactionType, product: Product, quantity: number): void => {
      const chunk = Math.floor(i.freezeQuantity / i.lotSize) * i.lotSize;
      for (let left = quantity; left > 0; left -= chunk) {
        exits.push({
          exchange: i.exchange,
          tradingsymbol: i.tradingsymbol,
          transaction_type: side,
          quantity: Math.min(left, chunk),
          order_type: 'MARKET',
          product,
          validity: 'DAY',
        });
      }
    };
    const instOf = (token: number): ModelInstrument => m.instrument(token);
    for (const p of snap.positions)
      if (p.quantity !== 0) exit(instOf(p.token), p.quantity > 0 ? 'SELL' : 'BUY', p.product, Math.abs(p.quantity));
    for (const h of snap.holdings) exit(instOf(h.token), 'SELL', 'CNC', h.quantity);
    for (const e of exits) {
      await this.place(e, `wind-down exit ${JSON.stringify(e)}`);
      await this.compare(`wind-down exit ${JSON.stringify(e)}`);
    }
    for (let round = 0; m.orders.some((o) => WORKING.has(o.status)); round++) {
      ensure(round < 500, () => 'wind-down: exits still working after 500 price events');
      const tokens = new Set(m.orders.filter((o) => WORKING.has(o.status)).map((o) => o.inst.token));
      // At a circuit limit one side of the book is empty (nobody bids at the lower circuit): after
      // a round at the last price, the market comes back to the middle of the band.
      for (const t of tokens) {
        const to = round === 0 ? m.lastPrice(t) : m.middleOfBand(t);
        await this.move(instOf(t), to / 10_000, `wind-down fill round ${round}`);
      }
      await this.compare(`wind-down fill round ${round}`);
    }
    const { snapshot, tape } = await this.read();
    const still = snapshot.orders.filter((o) => WORKING.has(o.status));
    deepStrictEqual(still, [], 'wind-down: an exit is still working');
    const open = snapshot.positions.filter((p) => p.quantity !== 0);
    deepStrictEqual(open, [], 'wind-down: a position is still open');
    deepStrictEqual(snapshot.holdings, [], 'wind-down: holdings remain');
    deepStrictEqual(
      { used: snapshot.funds.used, available: snapshot.funds.available },
      { used: 0, available: snapshot.funds.cash },
      'wind-down: margin still used with nothing open',
    );
    const flow = tape.reduce(
      (sum: number, t: DriverBody) =>
        sum +
        (t.transaction_type === 'SELL' ? 1 : -1) * t.quantity * units(t.price) * instOf(t.instrument_token).multiplier,
      0,
    );
    ensure(
      snapshot.funds.cash - m.openingUnits === flow,
      () => `wind-down: cash moved by ${snapshot.funds.cash - m.openingUnits}, the fills by ${flow} (units)`,
    );
  }
}

/**
 * One account's life: its opening cash (a small account meets margin refusals and, after a
 * loss, a negative free margin; a large one fills more) and up to 30 commands, shrinking to the
 * shortest sequence that still fails.
 */
export const accountLives: fc.Arbitrary<{ cash: number; cmds: Cmd[] }> = fc.record({
  cash: fc.constantFrom(200_000, 500_000, 2_000_000),
  cmds: fc.array(cmd, { minLength: 1, maxLength: 30, size: 'max' }),
});
