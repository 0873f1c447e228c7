import type { Exchange, InstrumentType } from '../../shared/domain/instrument';
import type { OrderStatus, OrderType, Product, TransactionType, Validity } from '../../shared/domain/order';

/**
 * The broker's internal records. Money is integer paise and times are epoch ms; the wire
 * spellings (rupees, ISO +05:30, snake_case) are produced only at the edge (wire-views.ts).
 */

/** One transition in an order's life (`GET /orders/{id}/history`). */
export interface HistoryEntry {
  status: OrderStatus;
  at: number;
  filled: number;
  filledValuePaise: number;
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
  pricePaise: number | null;
  triggerPaise: number | null;
  /** Σ fill price × quantity: the average is this over `filled`, exact until the edge. */
  filledValuePaise: number;
  status: OrderStatus;
  statusMessage: string | null;
  placedAt: number;
  updatedAt: number;
  /** Margin still blocked for the unfilled part. */
  blockedPaise: number;
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
  pricePaise: number;
  at: number;
}

/** Net position per instrument + product (MIS, NRML). */
export interface PaperPosition {
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  instrumentType: InstrumentType;
  product: Product;
  /** Signed: positive long, negative short. */
  net: number;
  /** Cost of the open quantity (always ≥ 0): average price = openCost / |net|. */
  openCostPaise: number;
  realisedPaise: number;
  buyQuantity: number;
  sellQuantity: number;
  lastFillPaise: number;
}

/** Delivery holdings, settled from CNC fills. */
export interface PaperHolding {
  token: number;
  exchange: Exchange;
  tradingsymbol: string;
  quantity: number;
  costPaise: number;
  lastFillPaise: number;
}

/** Pending quantity: never stored, so filled + pending + cancelled = quantity by construction. */
export function pendingOf(o: Pick<PaperOrder, 'quantity' | 'filled' | 'cancelled'>): number {
  return o.quantity - o.filled - o.cancelled;
}
