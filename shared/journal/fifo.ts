import type { ClosedTrade, JournalFill, MatchedPiece, OpenLot } from '../domain/journal';
import { estimateCharges } from '../trading/charges';

/**
 * Closed trades from fills (docs/journal.md §What a trade is): per instrument and product, in
 * the order they happened, each fill first closes the oldest open lots on the other side (first
 * in, first out) and whatever it has left opens a lot of its own — so a partial exit closes part
 * of a lot, a reversal closes everything and opens the other way, and a position carried over a
 * night is closed by the next day's exit. A closed trade is one exit order's fills with the
 * pieces of the entry lots they closed.
 */

interface Lot {
  readonly fill: JournalFill;
  remaining: number;
}

interface Building {
  readonly exitOrderId: string;
  readonly entries: MatchedPiece[];
  readonly exits: Map<string, MatchedPiece>;
  pnl: number;
  heldMs: number;
  quantity: number;
  charges: number;
  multiplier: number;
  direction: 'long' | 'short';
}

const keyOf = (f: Pick<JournalFill, 'exchange' | 'tradingsymbol' | 'product'>): string =>
  `${f.exchange}:${f.tradingsymbol}:${f.product}`;

/** Each order's estimated charges per unit it traded (carried lots cost nothing here). */
function chargesPerUnit(fills: readonly JournalFill[]): Map<string, number> {
  const byOrder = new Map<string, JournalFill[]>();
  for (const f of fills) {
    if (f.source === 'carried') continue;
    const list = byOrder.get(f.orderId);
    if (list) list.push(f);
    else byOrder.set(f.orderId, [f]);
  }
  const perUnit = new Map<string, number>();
  for (const [orderId, list] of byOrder) {
    const total = estimateCharges(list.map((f) => ({ ...f, transactionType: f.side }))).total;
    perUnit.set(orderId, total / list.reduce((q, f) => q + f.quantity, 0));
  }
  return perUnit;
}

const piece = (f: JournalFill, quantity: number): MatchedPiece => ({
  fillId: f.fillId,
  orderId: f.orderId,
  quantity,
  price: f.price,
  at: f.filledAt,
  carried: f.source === 'carried',
});

/** Fills in the order they happened (time, then id: a stable order for fills of one instant). */
const byTime = (a: JournalFill, b: JournalFill): number =>
  a.filledAt - b.filledAt || (a.fillId < b.fillId ? -1 : a.fillId > b.fillId ? 1 : 0);

/** The closed trades (newest exit first) and the lots still open. */
export function matchFifo(fills: readonly JournalFill[]): { trades: ClosedTrade[]; open: OpenLot[] } {
  const perUnit = chargesPerUnit(fills);
  const groups = new Map<string, JournalFill[]>();
  for (const f of fills) {
    const list = groups.get(keyOf(f));
    if (list) list.push(f);
    else groups.set(keyOf(f), [f]);
  }
  const trades: ClosedTrade[] = [];
  const open: OpenLot[] = [];
  for (const list of groups.values()) {
    list.sort(byTime);
    const queue: Lot[] = [];
    const building = new Map<string, Building>();
    for (const f of list) {
      let left = f.quantity;
      while (left > 0 && queue.length > 0 && queue[0]!.fill.side !== f.side) {
        const lot = queue[0]!;
        const take = Math.min(left, lot.remaining);
        let b = building.get(f.orderId);
        if (!b) {
          b = {
            exitOrderId: f.orderId,
            entries: [],
            exits: new Map(),
            pnl: 0,
            heldMs: 0,
            quantity: 0,
            charges: 0,
            multiplier: f.multiplier,
            direction: f.side === 'SELL' ? 'long' : 'short',
          };
          building.set(f.orderId, b);
        }
        const sign = b.direction === 'long' ? 1 : -1;
        b.entries.push(piece(lot.fill, take));
        const exit = b.exits.get(f.fillId);
        b.exits.set(f.fillId, exit ? { ...exit, quantity: exit.quantity + take } : piece(f, take));
        b.pnl += sign * (f.price - lot.fill.price) * take * f.multiplier;
        b.heldMs += take * Math.max(0, f.filledAt - lot.fill.filledAt);
        b.quantity += take;
        b.charges += take * ((perUnit.get(lot.fill.orderId) ?? 0) + (perUnit.get(f.orderId) ?? 0));
        lot.remaining -= take;
        left -= take;
        if (lot.remaining === 0) queue.shift();
      }
      if (left > 0) queue.push({ fill: f, remaining: left });
    }
    const first = list[0]!;
    for (const b of building.values()) trades.push(closed(first, b));
    if (queue.length > 0) {
      const units = queue.reduce((q, l) => q + l.remaining, 0);
      const sign = queue[0]!.fill.side === 'BUY' ? 1 : -1;
      open.push({
        exchange: first.exchange,
        tradingsymbol: first.tradingsymbol,
        product: first.product,
        quantity: sign * units,
        averagePrice: queue.reduce((v, l) => v + l.remaining * l.fill.price, 0) / units,
      });
    }
  }
  trades.sort((a, b) => b.exitAt - a.exitAt || (a.id < b.id ? 1 : -1));
  return { trades, open };
}

function closed(f: JournalFill, b: Building): ClosedTrade {
  const exits = [...b.exits.values()];
  const avg = (pieces: readonly MatchedPiece[]): number =>
    pieces.reduce((v, p) => v + p.price * p.quantity, 0) / pieces.reduce((q, p) => q + p.quantity, 0);
  return {
    id: `${keyOf(f)}:${b.exitOrderId}`,
    exchange: f.exchange,
    tradingsymbol: f.tradingsymbol,
    product: f.product,
    direction: b.direction,
    quantity: b.quantity,
    multiplier: b.multiplier,
    entryPrice: avg(b.entries),
    exitPrice: avg(exits),
    entryAt: Math.min(...b.entries.map((p) => p.at)),
    exitAt: Math.max(...exits.map((p) => p.at)),
    holdingMs: b.heldMs / b.quantity,
    pnl: b.pnl,
    charges: b.charges,
    net: b.pnl - b.charges,
    entries: b.entries,
    exits,
  };
}
