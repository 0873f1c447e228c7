import type { Exchange, InstrumentType } from '@shared/domain/instrument';
import type { OrderStatus, OrderType, Product, TransactionType, Validity, Variety } from '@shared/domain/order';

/**
 * The broker's internal records. Money is integer units of ₹0.0001 and times are epoch ms; the wire
 * spellings (rupees, ISO +05:30, snake_case) are produced only at the edge (wire-views.ts).
 */

/** One transition in an order's life (`GET /orders/{id}/history`). */
export interface HistoryEntry {
  status: OrderStatus;
  at: number;
  filled: number;
  filledValueUnits: number;
  message: string | null;
}

export interface PaperOrder {
  orderId: string;
  clientOrderId: string | null;
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  instrumentType: InstrumentType;
  transactionType: TransactionType;
  quantity: number;
  filled: number;
  /** Quantity that will never fill: cancelled, the IOC remainder, or all of a rejected order. */
  cancelled: number;
  orderType: OrderType;
  product: Product;
  validity: Validity;
  /** `amo` waits in AMO REQ RECEIVED for the open; journals from before varieties restore as `regular`. */
  variety: Variety;
  priceUnits: number | null;
  triggerUnits: number | null;
  /** Σ fill price × quantity: the average is this over `filled`, exact until the edge. */
  filledValueUnits: number;
  status: OrderStatus;
  statusMessage: string | null;
  placedAt: number;
  updatedAt: number;
  /** Margin still blocked for the unfilled part. */
  blockedUnits: number;
  /**
   * Starts at 1 and grows by one with every accepted modification (not with fills or status
   * changes): the precondition a PATCH may carry in `If-Match` (docs/api.md §PATCH).
   */
  version: number;
  history: HistoryEntry[];
}

export interface PaperTrade {
  tradeId: string;
  orderId: string;
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  instrumentType: InstrumentType;
  transactionType: TransactionType;
  product: Product;
  quantity: number;
  priceUnits: number;
  /** The instrument's multiplier when it filled: the trade's value is quantity × price × this. */
  multiplier: number;
  at: number;
}

/**
 * Net position per instrument + product (MIS, NRML), for the current day (docs/api.md §Margins,
 * positions, holdings, funds). Every value is in price units and includes the multiplier.
 */
export interface PaperPosition {
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  instrumentType: InstrumentType;
  product: Product;
  /** Fixed when the position opens (the first fill's); its values and marks all use it. */
  multiplier: number;
  /** Signed: positive long, negative short. */
  net: number;
  /** The net quantity carried in from the previous day (signed). */
  overnight: number;
  /** Cost of the open quantity (always ≥ 0): average price = openCost / (|net| × multiplier). */
  openCostUnits: number;
  /** Realised today (a carried position starts the day at zero). */
  realisedUnits: number;
  /** Bought and sold, the carried quantity included at its cost on its side. */
  buyQuantity: number;
  buyValueUnits: number;
  sellQuantity: number;
  sellValueUnits: number;
  /** Bought and sold today only. */
  dayBuyQuantity: number;
  dayBuyValueUnits: number;
  daySellQuantity: number;
  daySellValueUnits: number;
  lastFillUnits: number;
}

/** Delivery holdings, settled from the CNC positions of earlier days (T+1). */
export interface PaperHolding {
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  quantity: number;
  costUnits: number;
  lastFillUnits: number;
}

/** Pending quantity: never stored, so filled + pending + cancelled = quantity by construction. */
export function pendingOf(o: Pick<PaperOrder, 'quantity' | 'filled' | 'cancelled'>): number {
  return o.quantity - o.filled - o.cancelled;
}
