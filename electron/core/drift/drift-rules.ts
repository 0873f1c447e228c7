import type { DriftFinding } from '@shared/domain/drift';
import { isWorking, type Order, type Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { isoIst } from '../clock';

/** What one check read from the broker: the order book, positions, and the tradebook before and after them. */
export interface BrokerSnapshot {
  readonly orders: readonly Order[];
  readonly positions: readonly Position[];
  /** The tradebook read before the orders and positions… */
  readonly tradesBefore: readonly Trade[];
  /** …and after them: a figure that moved between the two is not compared this time. */
  readonly tradesAfter: readonly Trade[];
  /** Epoch ms when the first read was sent. */
  readonly startedAt: number;
  /**
   * The broker's trading day (`2026-11-23`, IST) from its market clock: fills of other days are
   * in the opening positions already, and orders of other days that no longer work are not judged.
   */
  readonly day: string;
  /**
   * Orders the broker's GTTs placed when they fired (read after the orders): a GTT is a standing
   * instruction the desk lists in its GTT tab, so its order is attributed to it, not to "outside".
   */
  readonly gttOrders: ReadonlySet<string>;
}

/** An order this desk placed, as the order service settled it. */
export interface DeskPlacement {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly exchange: Order['exchange'];
  readonly tradingsymbol: string;
  /** Epoch ms when the order service learnt the broker's id. */
  readonly at: number;
}

/** Main's own view: the references it journaled, the orders it placed, the fills it saw, the day's opening positions. */
export interface DeskView {
  /** True when this desk journaled the order's client reference (or an earlier run of it did). */
  ownsReference(clientOrderId: string | null): boolean;
  /** True when this desk told the trader nothing was created under this reference (refused, not placed, discarded). */
  toldAbsent(clientOrderId: string | null): boolean;
  readonly placed: readonly DeskPlacement[];
  /** The quantity main's order book holds as filled for this order; undefined when it holds no such order. */
  seenFilled(orderId: string): number | undefined;
  /** The net quantity the broker reported carried in for this position at the start of the day (0 when none). */
  opening(key: string): number;
}

/** One difference seen by one check (raised as a finding once a second check sees it too). */
export type Observation = Omit<DriftFinding, 'firstSeenAt' | 'lastSeenAt'>;

/** A position's key: exchange, symbol and product. */
export function positionKey(p: Pick<Position, 'exchange' | 'tradingsymbol' | 'product'>): string {
  return `${p.exchange}:${p.tradingsymbol}:${p.product}`;
}

/** An order at the broker the desk did not place (or said it did not): `why` ends its message. */
function outsideOrder(o: Order, why: string): Observation {
  return {
    id: `outside_order:${o.orderId}`,
    kind: 'outside_order',
    exchange: o.exchange,
    tradingsymbol: o.tradingsymbol,
    orderId: o.orderId,
    message: `Order ${o.orderId} for ${o.tradingsymbol} (${o.transactionType} ${o.quantity}) ${why}`,
  };
}

/**
 * Compares one snapshot with the desk's view (docs/contract.md §Drift alarm) and lists every
 * difference. An id carries the figures, so the same drift keeps its id from check to check and
 * a changed one is a new finding.
 *
 * Races are left out rather than guessed: an order placed after the reads began is not looked
 * for, and an order or position whose fills moved between the two tradebook reads is not compared.
 */
export function compareDrift(snapshot: BrokerSnapshot, desk: DeskView): Observation[] {
  const out: Observation[] = [];
  const listed = new Set(snapshot.orders.map((o) => o.orderId));
  const today = (t: Trade): boolean => istDay(t.filledAt) === snapshot.day;

  for (const o of snapshot.orders) {
    if (desk.toldAbsent(o.clientOrderId)) {
      // The one thing the desk must never be wrong about: it said this order was not created.
      out.push(outsideOrder(o, `carries reference ${o.clientOrderId ?? ''}, which Tradedesk reported as not placed`));
      continue;
    }
    if (desk.ownsReference(o.clientOrderId) || snapshot.gttOrders.has(o.orderId)) continue;
    if (!isWorking(o.status) && istDay(o.updatedAt) !== snapshot.day) continue;
    out.push(outsideOrder(o, 'was placed outside Tradedesk'));
  }

  for (const p of desk.placed) {
    if (p.at >= snapshot.startedAt || listed.has(p.orderId)) continue;
    out.push({
      id: `missing_order:${p.orderId}`,
      kind: 'missing_order',
      exchange: p.exchange,
      tradingsymbol: p.tradingsymbol,
      orderId: p.orderId,
      message: `Order ${p.orderId} for ${p.tradingsymbol}, placed by Tradedesk, is not in the broker's order book`,
    });
  }

  const tradesBefore = snapshot.tradesBefore.filter(today);
  const tradesAfter = snapshot.tradesAfter.filter(today);
  const before = fillsByOrder(tradesBefore);
  const after = fillsByOrder(tradesAfter);
  for (const [orderId, fill] of after) {
    if (before.get(orderId)?.quantity !== fill.quantity) continue;
    const seen = desk.seenFilled(orderId) ?? 0;
    if (fill.quantity <= seen) continue;
    out.push({
      id: `unseen_fill:${orderId}:${fill.quantity}:${seen}`,
      kind: 'unseen_fill',
      exchange: fill.trade.exchange,
      tradingsymbol: fill.trade.tradingsymbol,
      orderId,
      message:
        `Fill of ${fill.quantity - seen} ${fill.trade.tradingsymbol} on order ${orderId} not seen by Tradedesk ` +
        `(broker's trades: ${fill.quantity} filled; Tradedesk saw ${seen})`,
    });
  }

  const netBefore = netByPosition(tradesBefore);
  const netAfter = netByPosition(tradesAfter);
  const brokerSays = new Map(snapshot.positions.map((p) => [positionKey(p), p]));
  const keys = new Set([...brokerSays.keys(), ...netAfter.keys()]);
  for (const key of keys) {
    const moved = (netBefore.get(key)?.net ?? 0) !== (netAfter.get(key)?.net ?? 0);
    if (moved) continue;
    const held = brokerSays.get(key);
    const subject = held ?? netAfter.get(key)?.trade;
    if (!subject) continue;
    const opening = desk.opening(key);
    const expected = opening + (netAfter.get(key)?.net ?? 0);
    const broker = held?.quantity ?? 0;
    if (broker === expected) continue;
    const sum = opening === 0 ? `fills add up to ${expected}` : `opening ${opening} plus fills add up to ${expected}`;
    out.push({
      id: `position:${key}:${broker}:${expected}`,
      kind: 'position',
      exchange: subject.exchange,
      tradingsymbol: subject.tradingsymbol,
      orderId: null,
      message: `${subject.tradingsymbol} (${subject.product}) position: broker says ${broker}, ${sum}`,
    });
  }
  return out;
}

/**
 * The broker's trading day: its market clock's IST date, or the latest day its fills and orders
 * are stamped with when that is later — an adapter whose broker publishes no clock (Kite) tells the
 * local one, and the paper broker's simulated day may run ahead of it.
 */
export function tradingDay(marketNow: string, trades: readonly Trade[], orders: readonly Order[]): string {
  let day = istDay(marketNow);
  for (const t of trades) {
    const d = istDay(t.filledAt);
    if (d > day) day = d;
  }
  for (const o of orders) {
    const d = istDay(o.updatedAt);
    if (d > day) day = d;
  }
  return day;
}

/** The IST date of a broker timestamp (they carry their offset: docs/api.md §Numbers and money units). */
export function istDay(at: string): string {
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? isoIst(ms).slice(0, 10) : '';
}

function fillsByOrder(trades: readonly Trade[]): Map<string, { quantity: number; trade: Trade }> {
  const out = new Map<string, { quantity: number; trade: Trade }>();
  for (const t of trades) {
    const held = out.get(t.orderId);
    if (held) held.quantity += t.quantity;
    else out.set(t.orderId, { quantity: t.quantity, trade: t });
  }
  return out;
}

function netByPosition(trades: readonly Trade[]): Map<string, { net: number; trade: Trade }> {
  const out = new Map<string, { net: number; trade: Trade }>();
  for (const t of trades) {
    const key = positionKey(t);
    const signed = t.transactionType === 'BUY' ? t.quantity : -t.quantity;
    const held = out.get(key);
    if (held) held.net += signed;
    else out.set(key, { net: signed, trade: t });
  }
  return out;
}
