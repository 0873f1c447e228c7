import type { Instrument } from '../domain/instrument';
import type { OrderRequest } from '../domain/order';
import type { Holding, Position } from '../domain/portfolio';
import type { RiskBreach, RiskLimitName, RiskLimits, RiskStatus } from '../domain/risk';

/**
 * The risk guard's rules (docs/contract.md §Risk guard), pure: main applies them before an order
 * is journaled; the settings dialog and the header show what they decide. Every figure an order
 * is judged on is passed in, so a table of cases pins each rule.
 */

/** What main knows when it judges one order; null where it could not be read (then a limit that needs it refuses). */
export interface RiskFacts {
  readonly order: OrderRequest;
  readonly instrument: Pick<Instrument, 'lotSize' | 'multiplier'>;
  /** The instrument's last traded price. */
  readonly lastPrice: number | null;
  /**
   * Working orders at the broker plus placements on their way (journaled, or past the guard),
   * before this one. Absent for a modification, which adds no order: the count limits do not apply.
   */
  readonly openOrders: number | null;
  /** Orders journaled in the 60 s before this one (ignored for a modification). */
  readonly placedLastMinute: number;
  /**
   * Limits this judgement does not apply (docs/contract.md §Risk guard): a modification adds no
   * order (the counts); a GTT's order is placed later by the broker (the counts, and the price's
   * distance from a market that will have moved to its trigger).
   */
  readonly notJudged?: readonly RiskLimitName[];
  /** The day's realised + unrealised P&L over every position (`m2m`). */
  readonly dayPnl: number | null;
  /** Whether the order opens or adds to exposure (an exit of a position does not). */
  readonly increasesRisk: boolean;
  /** The loss limit was reached earlier today: it stays reached until the IST day ends. */
  readonly lossReachedToday: boolean;
  /**
   * The account has no market data (Kite's personal plan: docs/kite.md §The plan): the checks
   * that need the last price are off — not failed, which would refuse every such order.
   */
  readonly noMarketData?: boolean;
}

/** Why the price checks are off on an account without market data (the risk dialog says it). */
export const PRICE_CHECKS_OFF =
  "Price checks are off: no market data on this Kite plan, so a MARKET order's value and a price's distance from the last price cannot be checked";

const RUPEES = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const RUPEES_PAISE = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
const COUNT = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

/** ₹6,12,000 / ₹1,234.50 / −₹52,300: how a limit's money reads in a refusal (paise only when there are some). */
export function rupees(value: number): string {
  const abs = Math.abs(value);
  const text = Number.isInteger(Math.round(abs * 100) / 100) ? RUPEES.format(abs) : RUPEES_PAISE.format(abs);
  return value < 0 ? `−${text}` : text;
}

/** The price an order's value is counted at: its limit price, an SL-M's trigger, a MARKET's last price. */
export function valuationPrice(order: OrderRequest, lastPrice: number | null): number | null {
  if (order.orderType === 'LIMIT' || order.orderType === 'SL') return order.price ?? null;
  if (order.orderType === 'SL-M') return order.triggerPrice ?? null;
  return lastPrice;
}

/** How far (in % of the last price) the order's price and trigger stray from it; 0 for a MARKET order. */
export function priceDeviationPct(order: OrderRequest, lastPrice: number): number {
  const prices = [order.price, order.triggerPrice].filter((p): p is number => typeof p === 'number');
  if (lastPrice <= 0 || prices.length === 0) return 0;
  return Math.max(...prices.map((p) => (Math.abs(p - lastPrice) / lastPrice) * 100));
}

/**
 * Every limit the order breaks, hard ones first. A limit that needs a figure main could not read
 * is broken too ("could not be checked"): the guard never waves an order through blind.
 */
export function riskBreaches(limits: RiskLimits, f: RiskFacts): RiskBreach[] {
  const out: RiskBreach[] = [];
  const add = (limit: RiskLimitName, message: string): void => {
    const l = limits[limit];
    if (l && !f.notJudged?.includes(limit)) out.push({ limit, hard: l.hard, message });
  };
  const { order, instrument } = f;

  const maxValue = limits.maxOrderValue;
  if (maxValue) {
    const price = valuationPrice(order, f.lastPrice);
    if (price === null && f.noMarketData === true) {
      // A MARKET order on a plan without prices: off (PRICE_CHECKS_OFF), a LIMIT's value still counts.
    } else if (price === null) {
      add(
        'maxOrderValue',
        `Order value could not be checked against your limit of ${rupees(maxValue.value)}: no last price`,
      );
    } else {
      const value = price * order.quantity * instrument.multiplier;
      if (value > maxValue.value) {
        add('maxOrderValue', `Order value ${rupees(value)} exceeds your limit of ${rupees(maxValue.value)}`);
      }
    }
  }
  const maxQty = limits.maxQuantity;
  if (maxQty && order.quantity > maxQty.value) {
    add('maxQuantity', `Quantity ${COUNT.format(order.quantity)} exceeds your limit of ${COUNT.format(maxQty.value)}`);
  }
  const maxLots = limits.maxLots;
  const lots = order.quantity / instrument.lotSize;
  if (maxLots && lots > maxLots.value) {
    add('maxLots', `${COUNT.format(lots)} lots exceed your limit of ${COUNT.format(maxLots.value)} lots`);
  }
  const maxDev = limits.maxPriceDeviationPct;
  if (maxDev && order.orderType !== 'MARKET' && f.noMarketData !== true) {
    if (f.lastPrice === null || f.lastPrice <= 0) {
      add(
        'maxPriceDeviationPct',
        `The price could not be checked against your ${PERCENT.format(maxDev.value)}% limit: no last price`,
      );
    } else {
      const dev = priceDeviationPct(order, f.lastPrice);
      if (dev > maxDev.value) {
        add(
          'maxPriceDeviationPct',
          `Price is ${PERCENT.format(dev)}% away from the last price ${PERCENT.format(f.lastPrice)}; your limit is ${PERCENT.format(maxDev.value)}%`,
        );
      }
    }
  }
  const maxOpen = limits.maxOpenOrders;
  if (maxOpen) {
    if (f.openOrders === null) add('maxOpenOrders', 'Open orders could not be counted to check your limit');
    else if (f.openOrders + 1 > maxOpen.value) {
      add(
        'maxOpenOrders',
        `${COUNT.format(f.openOrders)} orders are open already; your limit is ${COUNT.format(maxOpen.value)}`,
      );
    }
  }
  const maxRate = limits.maxOrdersPerMinute;
  if (maxRate && f.placedLastMinute + 1 > maxRate.value) {
    add(
      'maxOrdersPerMinute',
      `${COUNT.format(f.placedLastMinute)} orders placed in the last minute; your limit is ${COUNT.format(maxRate.value)} a minute`,
    );
  }
  const loss = limits.dailyLossLimit;
  if (loss && f.increasesRisk) {
    if (f.lossReachedToday || (f.dayPnl !== null && lossReached(f.dayPnl, loss.value))) {
      const pnl = f.dayPnl === null ? '' : ` (today's P&L ${rupees(f.dayPnl)})`;
      add(
        'dailyLossLimit',
        `Daily loss limit of ${rupees(loss.value)} reached${pnl}: only orders that reduce a position are allowed today`,
      );
    } else if (f.dayPnl === null) {
      add('dailyLossLimit', `Today's P&L could not be read to check your daily loss limit of ${rupees(loss.value)}`);
    }
  }
  return out.sort((a, b) => Number(b.hard) - Number(a.hard));
}

/** True when the day's P&L is a loss of at least the limit. */
export function lossReached(dayPnl: number, limit: number): boolean {
  return -dayPnl >= limit;
}

/** A working order (or one on its way) as the exposure count needs it: what it would still trade. */
export interface PendingOrder {
  readonly exchange: string;
  readonly tradingsymbol: string;
  readonly product: string;
  readonly transactionType: 'BUY' | 'SELL';
  /** What is left to fill. */
  readonly pendingQuantity: number;
}

/**
 * Whether an order opens or adds to exposure. Only a BUY against a short position (or a SELL
 * against a long one, or of delivery holdings) no larger than what is left of it reduces risk;
 * anything else — including an exit that would flip the position — increases it. What is left
 * counts the working orders (and those on their way) that already reduce the same position, as
 * if they filled: two exits that each fit the position but together flip it are not both exits.
 */
export function increasesRisk(
  order: OrderRequest,
  positions: readonly Pick<Position, 'exchange' | 'tradingsymbol' | 'product' | 'quantity'>[],
  holdings: readonly Pick<Holding, 'exchange' | 'tradingsymbol' | 'quantity'>[] = [],
  working: readonly PendingOrder[] = [],
): boolean {
  const same = (p: { exchange: string; tradingsymbol: string }): boolean =>
    p.exchange === order.exchange && p.tradingsymbol === order.tradingsymbol;
  const signedOf = (o: { transactionType: 'BUY' | 'SELL' }, q: number): number =>
    o.transactionType === 'BUY' ? q : -q;
  const net = positions.filter((p) => same(p) && p.product === order.product).reduce((s, p) => s + p.quantity, 0);
  // The exits already working: orders of the same product on the other side of the position.
  const reducing = working
    .filter((w) => same(w) && w.product === order.product && Math.sign(signedOf(w, 1)) === -Math.sign(net))
    .reduce((s, w) => s + signedOf(w, w.pendingQuantity), 0);
  const left = net + reducing;
  const signed = signedOf(order, order.quantity);
  if (net !== 0 && Math.sign(left) === Math.sign(net) && Math.sign(signed) !== Math.sign(net)) {
    if (Math.abs(signed) <= Math.abs(left)) return false;
  }
  if (order.transactionType === 'SELL' && order.product === 'CNC') {
    const held = holdings.filter(same).reduce((s, h) => s + h.quantity, 0);
    const selling = working
      .filter((w) => same(w) && w.product === 'CNC' && w.transactionType === 'SELL')
      .reduce((s, w) => s + w.pendingQuantity, 0);
    return order.quantity > held + Math.max(0, net) - selling;
  }
  return true;
}

/** What a modification is not judged on: it adds no order. */
export const NOT_JUDGED_ON_MODIFY: readonly RiskLimitName[] = ['maxOpenOrders', 'maxOrdersPerMinute'];

/** What a GTT's legs are not judged on when it is created or changed: they are placed later, by the broker. */
export const NOT_JUDGED_ON_GTT: readonly RiskLimitName[] = [...NOT_JUDGED_ON_MODIFY, 'maxPriceDeviationPct'];

/** The day's P&L the loss limit is judged on: the sum of every position's `m2m`. */
export function dayPnlOf(positions: readonly Pick<Position, 'm2m'>[]): number {
  return positions.reduce((s, p) => s + p.m2m, 0);
}

/** The header's figures: where the day stands against the loss limit. */
export function riskStatus(
  limits: RiskLimits,
  dayPnl: number | null,
  reachedToday: boolean,
  asOf: number,
  noMarketData = false,
): RiskStatus {
  const loss = limits.dailyLossLimit;
  const reached = loss !== null && (reachedToday || (dayPnl !== null && lossReached(dayPnl, loss.value)));
  const pnl = dayPnl === null ? '' : ` (today's P&L ${rupees(dayPnl)})`;
  const detail =
    loss && reached
      ? loss.hard
        ? `Daily loss limit of ${rupees(loss.value)} reached${pnl}: only exits are allowed today`
        : `Daily loss limit of ${rupees(loss.value)} reached${pnl}: new positions ask for confirmation`
      : null;
  return {
    dayPnl,
    dailyLossLimit: loss,
    reached,
    blocked: reached && loss !== null && loss.hard,
    detail,
    asOf,
    ...(noMarketData ? { priceChecksOff: PRICE_CHECKS_OFF } : {}),
  };
}
