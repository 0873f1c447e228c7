import type { Exchange } from '@shared/domain/instrument';
import type { GttStatus, GttType } from '@shared/domain/gtt';
import type { OrderStatus, Product, TransactionType } from '@shared/domain/order';
import { fromUnits } from '@shared/trading/money';
import { firedLeg } from '@shared/trading/gtt-rules';
import { isOpen } from './calendar';
import type { PaperInstrument } from './instruments';
import type { Market, PriceMove } from './market';
import type { Engine } from './matching';
import { Problem, notFound } from './problem';

/**
 * The paper broker's GTT book (docs/api.md §GTT, docs/gtt.md): triggers it stores and watches on
 * every price move of the market, placing each fired leg's LIMIT order through the one matching
 * engine, so it shows in `/v1/orders` and the `/kite` order book like any other order.
 *
 * Synchronous like the engine; every change is handed to the sink (the journal) as a snapshot,
 * so replay is restoring the last snapshot of each GTT.
 */

/** One leg: the LIMIT order a trigger places, and what it placed. */
export interface PaperGttLeg {
  transactionType: TransactionType;
  quantity: number;
  product: Product;
  priceUnits: number;
  orderId: string | null;
  orderStatus: OrderStatus | null;
}

/** One stored GTT (price units, epoch ms). */
export interface PaperGtt {
  gttId: string;
  clientGttId: string | null;
  type: GttType;
  status: GttStatus;
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  triggerUnits: number[];
  /** The last price at creation (or the last modification): which side each trigger is on. */
  ltpAtCreationUnits: number;
  legs: PaperGttLeg[];
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  statusMessage: string | null;
  /** The price and time a leg fired at (absent until then). */
  fired?: { readonly ltpUnits: number; readonly at: number };
}

/** A validated GTT to create (the route ran the rules). */
export interface GttCreate {
  readonly instrument: PaperInstrument;
  readonly clientGttId: string | null;
  readonly type: GttType;
  readonly triggerUnits: readonly number[];
  readonly legs: ReadonlyArray<Omit<PaperGttLeg, 'orderId' | 'orderStatus'>>;
}

/** Kite's GTTs live a year (docs/gtt.md §Expiry). */
export const GTT_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

/** GTT ids start here, apart from order and trade ids. */
const GTT_ID_BASE = 7_000_000;

export class GttBook {
  private readonly gtts = new Map<string, PaperGtt>();
  private readonly byClientId = new Map<string, string>();
  /** Active GTTs per instrument token, so a price move touches only its own (like the engine's working orders). */
  private readonly watching = new Map<number, Set<string>>();
  private seq = 0;

  constructor(
    private readonly engine: Engine,
    /** The market's last prices and instruments. */
    private readonly market: Pick<Market, 'ltp' | 'instrument'>,
    /** Called with every GTT snapshot after a change (the journal). */
    private readonly sink: (g: PaperGtt) => void,
  ) {}

  all(): PaperGtt[] {
    return [...this.gtts.values()];
  }

  get(gttId: string): PaperGtt | undefined {
    return this.gtts.get(gttId);
  }

  byClient(clientGttId: string): PaperGtt | undefined {
    const id = this.byClientId.get(clientGttId);
    return id === undefined ? undefined : this.gtts.get(id);
  }

  count(): number {
    return this.gtts.size;
  }

  create(c: GttCreate, at: number): PaperGtt {
    this.seq += 1;
    const g: PaperGtt = {
      gttId: String(GTT_ID_BASE + this.seq),
      clientGttId: c.clientGttId,
      type: c.type,
      status: 'active',
      token: c.instrument.token,
      exchange: c.instrument.exchange,
      tradingsymbol: c.instrument.tradingsymbol,
      triggerUnits: [...c.triggerUnits],
      ltpAtCreationUnits: this.market.ltp(c.instrument.token),
      legs: c.legs.map((l) => ({ ...l, orderId: null, orderStatus: null })),
      createdAt: at,
      updatedAt: at,
      expiresAt: at + GTT_LIFETIME_MS,
      statusMessage: null,
    };
    this.gtts.set(g.gttId, g);
    if (g.clientGttId !== null && !this.byClientId.has(g.clientGttId)) this.byClientId.set(g.clientGttId, g.gttId);
    this.track(g);
    this.sink(g);
    return g;
  }

  /** The GTT if it may still change; 404 when unknown, 409 `gtt_not_modifiable` once done. */
  active(gttId: string, at: number): PaperGtt {
    const g = this.gtts.get(gttId);
    if (!g) throw notFound(`GTT ${gttId}`);
    this.expire(g, at);
    if (g.status !== 'active') {
      throw new Problem(409, 'gtt_not_modifiable', `GTT ${gttId} is ${g.status}; only an active GTT can change`);
    }
    return g;
  }

  modify(gttId: string, c: Pick<GttCreate, 'triggerUnits' | 'legs'>, at: number): PaperGtt {
    const g = this.active(gttId, at);
    g.triggerUnits = [...c.triggerUnits];
    g.legs = c.legs.map((l) => ({ ...l, orderId: null, orderStatus: null }));
    g.ltpAtCreationUnits = this.market.ltp(g.token);
    g.updatedAt = at;
    this.sink(g);
    return g;
  }

  /** Cancels an active GTT; cancelling a cancelled one answers it again (idempotent). */
  cancel(gttId: string, at: number): PaperGtt {
    const known = this.gtts.get(gttId);
    if (known?.status === 'cancelled') return known;
    const g = this.active(gttId, at);
    g.status = 'cancelled';
    g.updatedAt = at;
    this.track(g);
    this.sink(g);
    return g;
  }

  /** Marks every active GTT past its expiry expired (a list read, a restart). */
  sweep(at: number): void {
    for (const g of this.gtts.values()) this.expire(g, at);
  }

  private expire(g: PaperGtt, at: number): void {
    if (g.status !== 'active' || at < g.expiresAt) return;
    g.status = 'expired';
    g.statusMessage = 'Expired: not triggered within a year';
    g.updatedAt = at;
    this.track(g);
    this.sink(g);
  }

  /**
   * A price event on each instrument that moved: every active GTT on it whose trigger the new
   * price crossed fires — while its exchange is open — placing its leg's order through the
   * engine; for an OCO the other leg is done with it (docs/gtt.md §Triggering).
   */
  onMoves(moves: readonly PriceMove[]): void {
    for (const m of moves) {
      const ids = this.watching.get(m.token);
      if (!ids) continue;
      for (const id of [...ids]) {
        const g = this.gtts.get(id);
        if (!g || g.status !== 'active') continue;
        this.expire(g, m.at);
        if (g.status !== 'active' || !isOpen(g.exchange, m.at)) continue;
        const leg = firedLeg(g.type, g.triggerUnits, g.ltpAtCreationUnits, m.ltpUnits);
        if (leg !== null) this.fire(g, leg, m.ltpUnits, m.at);
      }
    }
  }

  private fire(g: PaperGtt, index: number, ltpUnits: number, at: number): void {
    const leg = g.legs[index];
    const instrument = this.market.instrument(g.token);
    if (!leg) return;
    const name = g.type === 'oco' ? (index === 0 ? 'stop-loss' : 'target') : 'trigger';
    if (!instrument) {
      g.status = 'rejected';
      g.statusMessage = `The ${name} fired at ₹${fromUnits(ltpUnits)} but ${g.tradingsymbol} no longer trades`;
      g.updatedAt = at;
      this.track(g);
      this.sink(g);
      return;
    }
    // Done before the order exists: nothing the placement sets off may fire this GTT again.
    g.status = 'triggered';
    this.track(g);
    const o = this.engine.place(
      {
        instrument,
        clientOrderId: `gtt-${g.gttId}-${index}`,
        transactionType: leg.transactionType,
        quantity: leg.quantity,
        orderType: 'LIMIT',
        product: leg.product,
        validity: 'DAY',
        priceUnits: leg.priceUnits,
        triggerUnits: null,
        variety: 'regular',
      },
      at,
    );
    leg.orderId = o.orderId;
    leg.orderStatus = o.status;
    g.fired = { ltpUnits, at };
    g.status = o.status === 'REJECTED' ? 'rejected' : 'triggered';
    const other = g.type === 'oco' ? `; the ${index === 0 ? 'target' : 'stop-loss'} is done` : '';
    g.statusMessage =
      o.status === 'REJECTED'
        ? `The ${name} fired at ₹${fromUnits(ltpUnits)}; its order ${o.orderId} was rejected: ${o.statusMessage ?? ''}${other}`
        : `The ${name} fired at ₹${fromUnits(ltpUnits)} and placed order ${o.orderId}${other}`;
    g.updatedAt = at;
    this.track(g);
    this.sink(g);
  }

  /** Keeps `watching` in step with a GTT's status. */
  private track(g: PaperGtt): void {
    let ids = this.watching.get(g.token);
    if (g.status === 'active') {
      if (!ids) this.watching.set(g.token, (ids = new Set()));
      ids.add(g.gttId);
    } else if (ids) {
      ids.delete(g.gttId);
      if (ids.size === 0) this.watching.delete(g.token);
    }
  }

  /** New GTT ids start above `gttId` (a repair removed lines that mention it: a client may have seen it). */
  continueAbove(gttId: number): void {
    if (gttId > GTT_ID_BASE) this.seq = Math.max(this.seq, gttId - GTT_ID_BASE);
  }

  /** Replay: the latest snapshot of a GTT replaces what came before. */
  restore(g: PaperGtt): void {
    const copy = { ...g, triggerUnits: [...g.triggerUnits], legs: g.legs.map((l) => ({ ...l })) };
    this.gtts.set(g.gttId, copy);
    this.track(copy);
    if (g.clientGttId !== null && !this.byClientId.has(g.clientGttId)) this.byClientId.set(g.clientGttId, g.gttId);
    this.seq = Math.max(this.seq, Number(g.gttId) - GTT_ID_BASE);
  }
}
