import { leverageOf, marginFor } from './margin';
import type { PaperHolding, PaperPosition, PaperTrade } from './types';

/**
 * The account's money, positions and holdings, changed only by fills.
 *
 * Cash identity (what the property test checks): cash = opening + realised − cost of holdings.
 * MIS/NRML fills change cash only through realised P&L (the open position is carried on
 * margin); CNC buys settle into holdings at once (paper T+0) and pay their full value; CNC
 * sells pay the value back and realise the difference to the holding's average cost.
 */
export class Account {
  readonly positions = new Map<string, PaperPosition>();
  readonly holdings = new Map<number, PaperHolding>();
  realisedUnits = 0;
  holdingsCostUnits = 0;

  constructor(readonly openingUnits: number) {}

  get cashUnits(): number {
    return this.openingUnits + this.realisedUnits - this.holdingsCostUnits;
  }

  position(token: number, product: string): PaperPosition | undefined {
    return this.positions.get(`${token}:${product}`);
  }

  /** Applies one fill. Pure bookkeeping: no checks (they happened when the order was placed). */
  applyTrade(t: PaperTrade): void {
    if (t.product === 'CNC') this.applyDelivery(t);
    else this.applyPosition(t);
  }

  private applyDelivery(t: PaperTrade): void {
    let h = this.holdings.get(t.token);
    if (!h) {
      h = {
        token: t.token,
        exchange: t.exchange,
        tradingsymbol: t.tradingsymbol,
        quantity: 0,
        costUnits: 0,
        lastFillUnits: t.priceUnits,
      };
      this.holdings.set(t.token, h);
    }
    h.lastFillUnits = t.priceUnits;
    const value = t.quantity * t.priceUnits;
    if (t.transactionType === 'BUY') {
      h.quantity += t.quantity;
      h.costUnits += value;
      this.holdingsCostUnits += value;
      return;
    }
    const q = Math.min(t.quantity, h.quantity);
    const cost = h.quantity > 0 ? Math.round((h.costUnits * q) / h.quantity) : 0;
    h.quantity -= q;
    h.costUnits -= cost;
    this.holdingsCostUnits -= cost;
    this.realisedUnits += q * t.priceUnits - cost;
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
        net: 0,
        openCostUnits: 0,
        realisedUnits: 0,
        buyQuantity: 0,
        sellQuantity: 0,
        lastFillUnits: t.priceUnits,
      };
      this.positions.set(key, p);
    }
    const side = t.transactionType === 'BUY' ? 1 : -1;
    if (side > 0) p.buyQuantity += t.quantity;
    else p.sellQuantity += t.quantity;
    p.lastFillUnits = t.priceUnits;
    let qty = t.quantity;
    if (p.net !== 0 && Math.sign(p.net) !== side) {
      const closing = Math.min(qty, Math.abs(p.net));
      const cost = Math.round((p.openCostUnits * closing) / Math.abs(p.net));
      const proceeds = closing * t.priceUnits;
      const realised = p.net > 0 ? proceeds - cost : cost - proceeds;
      p.realisedUnits += realised;
      this.realisedUnits += realised;
      p.openCostUnits -= cost;
      p.net += side * closing;
      qty -= closing;
    }
    if (qty > 0) {
      p.net += side * qty;
      p.openCostUnits += qty * t.priceUnits;
    }
  }

  /** Unrealised P&L of one position at `ltpUnits`. */
  static unrealised(p: PaperPosition, ltpUnits: number): number {
    if (p.net === 0) return 0;
    return p.net > 0 ? p.net * ltpUnits - p.openCostUnits : p.openCostUnits - Math.abs(p.net) * ltpUnits;
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
