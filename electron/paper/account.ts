import { istDate } from '@shared/lib/ist-time';
import { leverageOf, marginFor } from './margin';
import type { PaperHolding, PaperPosition, PaperTrade } from './types';

/**
 * The account's money, positions and holdings, changed only by fills and by the turn of the day.
 *
 * Cash identity (what the property test checks): cash = opening + realised − cost of holdings.
 * Position fills change cash only through realised P&L (the open position is carried on
 * margin). CNC buys are T+1 (docs/api.md §Margins, positions, holdings, funds, "Holdings"): the
 * day's CNC position holds their full cost as margin, and at the turn of the day its quantity
 * settles into holdings, whose cost then leaves cash. A CNC sell first closes the day's CNC
 * position, then sells out of holdings: that part pays its value back and realises the
 * difference to the holding's average cost.
 *
 * Positions are the day's: at the first fill or read on a later IST day, flat positions drop
 * out, CNC positions move into holdings, and open ones carry over with their net quantity as the
 * overnight quantity and only that quantity, at its cost, in their buy or sell totals.
 */
export class Account {
  readonly positions = new Map<string, PaperPosition>();
  readonly holdings = new Map<number, PaperHolding>();
  realisedUnits = 0;
  holdingsCostUnits = 0;
  /** The IST date the positions' day figures belong to (null until the first fill or read). */
  private day: string | null = null;

  constructor(readonly openingUnits: number) {}

  get cashUnits(): number {
    return this.openingUnits + this.realisedUnits - this.holdingsCostUnits;
  }

  position(token: number, product: string): PaperPosition | undefined {
    return this.positions.get(`${token}:${product}`);
  }

  /** Starts the IST day of `at` if it is later than the positions' day (see the class comment). */
  rollTo(at: number): void {
    const day = istDate(at);
    if (this.day !== null && day <= this.day) return;
    const first = this.day === null;
    this.day = day;
    if (first) return;
    for (const [key, p] of this.positions) {
      if (p.product === 'CNC') {
        // T+1: yesterday's delivery buys are in holdings today, at their cost.
        if (p.net > 0) this.settle(p);
        this.positions.delete(key);
        continue;
      }
      if (p.net === 0) {
        this.positions.delete(key);
        continue;
      }
      p.overnight = p.net;
      p.buyQuantity = Math.max(0, p.net);
      p.buyValueUnits = p.net > 0 ? p.openCostUnits : 0;
      p.sellQuantity = Math.max(0, -p.net);
      p.sellValueUnits = p.net < 0 ? p.openCostUnits : 0;
      p.dayBuyQuantity = 0;
      p.dayBuyValueUnits = 0;
      p.daySellQuantity = 0;
      p.daySellValueUnits = 0;
      p.realisedUnits = 0;
    }
  }

  /** Applies one fill. Pure bookkeeping: no checks (they happened when the order was placed). */
  applyTrade(t: PaperTrade): void {
    this.rollTo(t.at);
    if (t.product !== 'CNC' || t.transactionType === 'BUY') return this.applyPosition(t);
    // A delivery sell closes today's (unsettled) CNC buys first, then sells out of holdings.
    const today = Math.max(0, this.position(t.token, 'CNC')?.net ?? 0);
    const closing = Math.min(today, t.quantity);
    if (closing > 0) this.applyPosition({ ...t, quantity: closing });
    if (t.quantity > closing) this.sellHoldings({ ...t, quantity: t.quantity - closing });
  }

  /** Shares a CNC sell may take: settled holdings plus today's CNC buys still held. */
  deliverable(token: number): number {
    return (this.holdings.get(token)?.quantity ?? 0) + Math.max(0, this.position(token, 'CNC')?.net ?? 0);
  }

  /** Moves a CNC position's open quantity into holdings at its cost (T+1 settlement). */
  private settle(p: PaperPosition): void {
    let h = this.holdings.get(p.token);
    if (!h) {
      h = {
        token: p.token,
        exchange: p.exchange,
        tradingsymbol: p.tradingsymbol,
        quantity: 0,
        costUnits: 0,
        lastFillUnits: p.lastFillUnits,
      };
      this.holdings.set(p.token, h);
    }
    h.quantity += p.net;
    h.costUnits += p.openCostUnits;
    this.holdingsCostUnits += p.openCostUnits;
  }

  private sellHoldings(t: PaperTrade): void {
    const h = this.holdings.get(t.token);
    if (!h) return;
    h.lastFillUnits = t.priceUnits;
    const q = Math.min(t.quantity, h.quantity);
    const cost = h.quantity > 0 ? Math.round((h.costUnits * q) / h.quantity) : 0;
    h.quantity -= q;
    h.costUnits -= cost;
    this.holdingsCostUnits -= cost;
    this.realisedUnits += q * t.priceUnits * t.multiplier - cost;
    if (h.quantity === 0) this.holdings.delete(t.token);
  }

  private applyPosition(t: PaperTrade): void {
    const key = `${t.token}:${t.product}`;
    let p = this.positions.get(key);
    if (!p) {
      p = {
        token: t.token,
        exchange: t.exchange,
        tradingsymbol: t.tradingsymbol,
        instrumentType: t.instrumentType,
        product: t.product,
        multiplier: t.multiplier,
        net: 0,
        overnight: 0,
        openCostUnits: 0,
        realisedUnits: 0,
        buyQuantity: 0,
        buyValueUnits: 0,
        sellQuantity: 0,
        sellValueUnits: 0,
        dayBuyQuantity: 0,
        dayBuyValueUnits: 0,
        daySellQuantity: 0,
        daySellValueUnits: 0,
        lastFillUnits: t.priceUnits,
      };
      this.positions.set(key, p);
    }
    const side = t.transactionType === 'BUY' ? 1 : -1;
    const perUnit = t.priceUnits * p.multiplier;
    const value = t.quantity * perUnit;
    if (side > 0) {
      p.buyQuantity += t.quantity;
      p.buyValueUnits += value;
      p.dayBuyQuantity += t.quantity;
      p.dayBuyValueUnits += value;
    } else {
      p.sellQuantity += t.quantity;
      p.sellValueUnits += value;
      p.daySellQuantity += t.quantity;
      p.daySellValueUnits += value;
    }
    p.lastFillUnits = t.priceUnits;
    let qty = t.quantity;
    if (p.net !== 0 && Math.sign(p.net) !== side) {
      const closing = Math.min(qty, Math.abs(p.net));
      const cost = Math.round((p.openCostUnits * closing) / Math.abs(p.net));
      const proceeds = closing * perUnit;
      const realised = p.net > 0 ? proceeds - cost : cost - proceeds;
      p.realisedUnits += realised;
      this.realisedUnits += realised;
      p.openCostUnits -= cost;
      p.net += side * closing;
      qty -= closing;
    }
    if (qty > 0) {
      p.net += side * qty;
      p.openCostUnits += qty * perUnit;
    }
  }

  /** Value of the open quantity at `ltpUnits` (signed: negative for a short). */
  static markValue(p: PaperPosition, ltpUnits: number): number {
    return p.net * ltpUnits * p.multiplier;
  }

  /** Unrealised P&L of one position at `ltpUnits`. */
  static unrealised(p: PaperPosition, ltpUnits: number): number {
    if (p.net === 0) return 0;
    return p.net > 0
      ? Account.markValue(p, ltpUnits) - p.openCostUnits
      : p.openCostUnits + Account.markValue(p, ltpUnits);
  }

  /** Total P&L of the day's position: sell value − buy value + the open quantity at `ltpUnits`. */
  static pnl(p: PaperPosition, ltpUnits: number): number {
    return p.sellValueUnits - p.buyValueUnits + Account.markValue(p, ltpUnits);
  }

  /** The day's P&L (m2m): today's trades, and the overnight quantity from the previous close. */
  static m2m(p: PaperPosition, ltpUnits: number, closeUnits: number): number {
    return (
      p.daySellValueUnits -
      p.dayBuyValueUnits +
      Account.markValue(p, ltpUnits) -
      p.overnight * closeUnits * p.multiplier
    );
  }

  /** Margin an open position holds: its cost over the product's leverage. */
  static positionMargin(p: PaperPosition): number {
    if (p.net === 0) return 0;
    return marginFor(p.openCostUnits, leverageOf(p.product, p.instrumentType, p.net > 0 ? 'BUY' : 'SELL'));
  }

  positionsMargin(): number {
    let sum = 0;
    for (const p of this.positions.values()) sum += Account.positionMargin(p);
    return sum;
  }
}
