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
  realisedPaise = 0;
  holdingsCostPaise = 0;

  constructor(readonly openingPaise: number) {}

  get cashPaise(): number {
    return this.openingPaise + this.realisedPaise - this.holdingsCostPaise;
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
        costPaise: 0,
        lastFillPaise: t.pricePaise,
      };
      this.holdings.set(t.token, h);
    }
    h.lastFillPaise = t.pricePaise;
    const value = t.quantity * t.pricePaise;
    if (t.transactionType === 'BUY') {
      h.quantity += t.quantity;
      h.costPaise += value;
      this.holdingsCostPaise += value;
      return;
    }
    const q = Math.min(t.quantity, h.quantity);
    const cost = h.quantity > 0 ? Math.round((h.costPaise * q) / h.quantity) : 0;
    h.quantity -= q;
    h.costPaise -= cost;
    this.holdingsCostPaise -= cost;
    this.realisedPaise += q * t.pricePaise - cost;
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
        openCostPaise: 0,
        realisedPaise: 0,
        buyQuantity: 0,
        sellQuantity: 0,
        lastFillPaise: t.pricePaise,
      };
      this.positions.set(key, p);
    }
    const side = t.transactionType === 'BUY' ? 1 : -1;
    if (side > 0) p.buyQuantity += t.quantity;
    else p.sellQuantity += t.quantity;
    p.lastFillPaise = t.pricePaise;
    let qty = t.quantity;
    if (p.net !== 0 && Math.sign(p.net) !== side) {
      const closing = Math.min(qty, Math.abs(p.net));
      const cost = Math.round((p.openCostPaise * closing) / Math.abs(p.net));
      const proceeds = closing * t.pricePaise;
      const realised = p.net > 0 ? proceeds - cost : cost - proceeds;
      p.realisedPaise += realised;
      this.realisedPaise += realised;
      p.openCostPaise -= cost;
      p.net += side * closing;
      qty -= closing;
    }
    if (qty > 0) {
      p.net += side * qty;
      p.openCostPaise += qty * t.pricePaise;
    }
  }

  /** Unrealised P&L of one position at `ltpPaise`. */
  static unrealised(p: PaperPosition, ltpPaise: number): number {
    if (p.net === 0) return 0;
    return p.net > 0 ? p.net * ltpPaise - p.openCostPaise : p.openCostPaise - Math.abs(p.net) * ltpPaise;
  }

  /** Margin an open position holds: its cost over the product's leverage. */
  static positionMargin(p: PaperPosition): number {
    if (p.net === 0) return 0;
    return marginFor(p.openCostPaise, leverageOf(p.product, p.instrumentType, p.net > 0 ? 'BUY' : 'SELL'));
  }

  positionsMargin(): number {
    let sum = 0;
    for (const p of this.positions.values()) sum += Account.positionMargin(p);
    return sum;
  }
}
