import type { Exchange } from '../domain/instrument';
import type { Product, TransactionType } from '../domain/order';

/**
 * The statutory and brokerage charges a day's fills would cost, estimated from a published rate
 * card (docs/desk.md §Charges model). An estimate, never a contract note: the broker's
 * contract note rounds per order and per segment, and its rates change by circular.
 */

/** How a fill is charged: by segment and, in equity, by whether it is intraday. */
export type ChargeSegment =
  | 'equity-intraday'
  | 'equity-delivery'
  | 'equity-futures'
  | 'equity-options'
  | 'commodity-futures'
  | 'commodity-options'
  | 'currency-futures'
  | 'currency-options';

/** One segment's rates; fractions of turnover unless named otherwise. */
export interface SegmentRates {
  /** Brokerage per executed order: this fraction of the order's turnover… */
  readonly brokerageRate: number;
  /** …capped at this many rupees (`flat` charges exactly this). */
  readonly brokerageCap: number;
  /** True when brokerage is the cap whatever the turnover (options). */
  readonly brokerageFlat: boolean;
  /** STT/CTT on the buy side's turnover. */
  readonly sttBuy: number;
  /** STT/CTT on the sell side's turnover. */
  readonly sttSell: number;
  /** The exchange's transaction charge on both sides. */
  readonly exchange: number;
  /** Stamp duty on the buy side. */
  readonly stampBuy: number;
}

/** SEBI's turnover fee: ₹10 per crore on both sides. */
export const SEBI_RATE = 10 / 1_00_00_000;
/** GST on brokerage, exchange charges and the SEBI fee. */
export const GST_RATE = 0.18;

/** The rate card (docs/desk.md §Charges model: the source and date of each rate). */
export const RATES: Readonly<Record<ChargeSegment, SegmentRates>> = {
  'equity-intraday': {
    brokerageRate: 0.0003,
    brokerageCap: 20,
    brokerageFlat: false,
    sttBuy: 0,
    sttSell: 0.00025,
    exchange: 0.0000297,
    stampBuy: 0.00003,
  },
  'equity-delivery': {
    brokerageRate: 0,
    brokerageCap: 0,
    brokerageFlat: false,
    sttBuy: 0.001,
    sttSell: 0.001,
    exchange: 0.0000297,
    stampBuy: 0.00015,
  },
  'equity-futures': {
    brokerageRate: 0.0003,
    brokerageCap: 20,
    brokerageFlat: false,
    sttBuy: 0,
    sttSell: 0.0002,
    exchange: 0.0000173,
    stampBuy: 0.00002,
  },
  'equity-options': {
    brokerageRate: 0,
    brokerageCap: 20,
    brokerageFlat: true,
    sttBuy: 0,
    sttSell: 0.001,
    exchange: 0.0003503,
    stampBuy: 0.00003,
  },
  'commodity-futures': {
    brokerageRate: 0.0003,
    brokerageCap: 20,
    brokerageFlat: false,
    sttBuy: 0,
    sttSell: 0.0001,
    exchange: 0.000021,
    stampBuy: 0.00002,
  },
  'commodity-options': {
    brokerageRate: 0,
    brokerageCap: 20,
    brokerageFlat: true,
    sttBuy: 0,
    sttSell: 0.0005,
    exchange: 0.000418,
    stampBuy: 0.00003,
  },
  'currency-futures': {
    brokerageRate: 0.0003,
    brokerageCap: 20,
    brokerageFlat: false,
    sttBuy: 0,
    sttSell: 0,
    exchange: 0.0000035,
    stampBuy: 0.000001,
  },
  'currency-options': {
    brokerageRate: 0,
    brokerageCap: 20,
    brokerageFlat: true,
    sttBuy: 0,
    sttSell: 0,
    exchange: 0.000311,
    stampBuy: 0.000001,
  },
};

/** What the charges model needs of one fill. */
export interface ChargeableFill {
  readonly orderId: string;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly transactionType: TransactionType;
  readonly product: Product;
  readonly quantity: number;
  readonly price: number;
  /** Rupees per price point per unit (the instrument's multiplier; 1 for equities). */
  readonly multiplier: number;
}

/**
 * The segment a fill is charged in. Cash equity is delivery only under CNC; a derivative is an
 * option when its symbol ends in CE/PE (every exchange's convention), else a future.
 */
export function chargeSegment(fill: Pick<ChargeableFill, 'exchange' | 'tradingsymbol' | 'product'>): ChargeSegment {
  const option = /(CE|PE)$/.test(fill.tradingsymbol);
  switch (fill.exchange) {
    case 'NSE':
    case 'BSE':
      return fill.product === 'CNC' ? 'equity-delivery' : 'equity-intraday';
    case 'NFO':
    case 'BFO':
      return option ? 'equity-options' : 'equity-futures';
    case 'MCX':
      return option ? 'commodity-options' : 'commodity-futures';
    case 'CDS':
      return option ? 'currency-options' : 'currency-futures';
  }
}

/** The charges of a set of fills, by kind, in rupees (unrounded: round once where shown). */
export interface Charges {
  readonly brokerage: number;
  /** STT (securities) or CTT (commodities). */
  readonly stt: number;
  readonly exchange: number;
  readonly sebi: number;
  readonly gst: number;
  readonly stamp: number;
  readonly total: number;
}

/** Turnover of one fill in rupees. */
export function fillValue(fill: Pick<ChargeableFill, 'quantity' | 'price' | 'multiplier'>): number {
  return fill.quantity * fill.price * fill.multiplier;
}

/**
 * Estimated charges of `fills`. Brokerage is per executed order (all fills of one order id
 * together, so an order filled in three parts pays once); every other charge is on turnover.
 */
export function estimateCharges(fills: readonly ChargeableFill[]): Charges {
  let stt = 0;
  let exchange = 0;
  let sebi = 0;
  let stamp = 0;
  const perOrder = new Map<string, { value: number; rates: SegmentRates }>();
  for (const f of fills) {
    const rates = RATES[chargeSegment(f)];
    const value = fillValue(f);
    const buy = f.transactionType === 'BUY';
    stt += value * (buy ? rates.sttBuy : rates.sttSell);
    exchange += value * rates.exchange;
    sebi += value * SEBI_RATE;
    if (buy) stamp += value * rates.stampBuy;
    const order = perOrder.get(f.orderId);
    if (order) order.value += value;
    else perOrder.set(f.orderId, { value, rates });
  }
  let brokerage = 0;
  for (const { value, rates } of perOrder.values()) {
    brokerage += rates.brokerageFlat ? rates.brokerageCap : Math.min(rates.brokerageCap, value * rates.brokerageRate);
  }
  const gst = (brokerage + exchange + sebi) * GST_RATE;
  return { brokerage, stt, exchange, sebi, gst, stamp, total: brokerage + stt + exchange + sebi + gst + stamp };
}

/** The day at a glance: what was traded, what it made (realised), and what it cost. */
export interface DaySummary {
  readonly fills: number;
  readonly orders: number;
  /** Σ price × quantity × multiplier over every fill, both sides. */
  readonly turnover: number;
  readonly realisedPnl: number;
  readonly charges: Charges;
  /** Realised P&L less the estimated charges. */
  readonly netRealised: number;
}

/**
 * The day's summary from its fills and the broker's realised P&L (the positions' sum, which
 * already counts carried positions from their cost; docs/api.md §Margins, positions, holdings, funds).
 */
export function daySummary(fills: readonly ChargeableFill[], realisedPnl: number): DaySummary {
  const charges = estimateCharges(fills);
  return {
    fills: fills.length,
    orders: new Set(fills.map((f) => f.orderId)).size,
    turnover: fills.reduce((sum, f) => sum + fillValue(f), 0),
    realisedPnl,
    charges,
    netRealised: realisedPnl - charges.total,
  };
}
