import type { Candle, CandleInterval, Tick } from '@shared/domain/market';
import { isWorking, type Order, type OrderType, type TransactionType } from '@shared/domain/order';
import { IST_OFFSET_MS } from '@shared/lib/ist-time';
import { roundToTick } from '@shared/trading/money';
import { sameMembers } from '../../lib/same-members';
import { formatPrice } from '../../lib/format';

/**
 * Candles as the chart draws them, and how a tick moves the last one. Pure: the chart
 * component only hands the results to lightweight-charts.
 *
 * Times are "IST seconds": epoch seconds shifted by +05:30. lightweight-charts labels its axis
 * in UTC, so the shift makes it print exchange time (09:15 for the open) on any machine.
 */

/** One bar in chart time. */
export interface Bar {
  /** Bucket start in IST seconds. */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

const SIZE_MS: Record<CandleInterval, number> = {
  minute: 60_000,
  '5minute': 300_000,
  '15minute': 900_000,
  '60minute': 3_600_000,
  day: 86_400_000,
};

/** The bucket an instant falls in, as IST seconds (buckets start on IST boundaries, like the broker's). */
export function bucketOf(epochMs: number, interval: CandleInterval): number {
  const size = SIZE_MS[interval];
  return Math.floor((epochMs + IST_OFFSET_MS) / size) * (size / 1000);
}

/** A bar's start as epoch ms (undoing the IST shift), for labels. */
export function barStartMs(time: number): number {
  return time * 1000 - IST_OFFSET_MS;
}

/** The broker's candles as bars, oldest first, one per bucket. */
export function toBars(candles: readonly Candle[], interval: CandleInterval): Bar[] {
  const out: Bar[] = [];
  for (const c of candles) {
    const at = Date.parse(c.ts);
    if (!Number.isFinite(at)) continue;
    const bar = {
      time: bucketOf(at, interval),
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
    };
    if (out.length > 0 && out[out.length - 1]!.time >= bar.time) continue; // the chart needs strictly rising times
    out.push(bar);
  }
  return out;
}

/**
 * The forming bar after a tick: the last bar moved (close, high/low widened, volume grown by
 * the traded quantity since the previous tick), or a new bar when the tick opens a new bucket.
 * A tick older than the last bar is ignored (null).
 */
export function applyTick(
  last: Bar | undefined,
  tick: Tick,
  interval: CandleInterval,
  tradedSincePrevious: number,
): Bar | null {
  const at = Date.parse(tick.ts);
  if (!Number.isFinite(at)) return null;
  const time = bucketOf(at, interval);
  const p = tick.lastPrice;
  const vol = Math.max(0, tradedSincePrevious);
  if (!last || time > last.time) return { time, open: p, high: p, low: p, close: p, volume: vol };
  if (time < last.time) return null;
  return {
    time,
    open: last.open,
    high: Math.max(last.high, p),
    low: Math.min(last.low, p),
    close: p,
    volume: last.volume + vol,
  };
}

/** What clicking a price on the chart puts in the ticket. */
export interface ChartOrder {
  readonly orderType: OrderType;
  readonly price: string;
  readonly triggerPrice: string;
}

/**
 * A click on the chart as an order at that price, for the ticket's side: a price the market
 * has not reached yet in the order's favour is a LIMIT (buy below / sell above the last
 * price); one on the other side would fill at once as a limit, so it is a stop (SL) that
 * triggers there (buy above / sell below) with the limit at the same price.
 */
export function orderAtPrice(side: TransactionType, clicked: number, ltp: number, tickSize: number): ChartOrder | null {
  if (!(clicked > 0) || !(tickSize > 0)) return null;
  const price = roundToTick(clicked, tickSize);
  if (!(price > 0)) return null;
  const limit = side === 'BUY' ? price <= ltp : price >= ltp;
  return limit
    ? { orderType: 'LIMIT', price: String(price), triggerPrice: '' }
    : { orderType: 'SL', price: String(price), triggerPrice: String(price) };
}

/** How an order or the position appears as a price line. */
export interface PriceLine {
  readonly id: string;
  readonly price: number;
  /**
   * `ghost`: an order's old price while a modification is unanswered; `draft`: an exit drawn, not
   * placed; `drawn`: a horizontal line the trader drew (docs/desk.md §Chart studies and drawings).
   */
  readonly kind: 'buy' | 'sell' | 'trigger' | 'position' | 'ghost' | 'draft' | 'drawn';
  /** Axis label ("BUY 10 LMT"), and the legend's longer text. */
  readonly title: string;
  readonly label: string;
}

/**
 * The instrument's working orders, for its price lines: `prev` again when they are the same
 * order objects (the page's order book keeps an unchanged order's object), so a change anywhere
 * else in a large book does not take down and redraw every line (docs/ladder.md §Speed).
 */
export function workingOf(all: readonly Order[], instrumentToken: number, prev: Order[] | null): Order[] {
  const next = all.filter((o) => o.instrumentToken === instrumentToken && isWorking(o.status));
  return prev && sameMembers(prev, next) ? prev : next;
}

/** Working orders and the open position of one instrument as price lines. */
export function priceLinesOf(
  orders: ReadonlyArray<{
    orderId: string;
    transactionType: TransactionType;
    orderType: OrderType;
    pendingQuantity: number;
    price: number | null;
    triggerPrice: number | null;
  }>,
  position: { quantity: number; averagePrice: number } | null,
  tickSize?: number,
): PriceLine[] {
  const at = (v: number): string => formatPrice(v, tickSize);
  const lines: PriceLine[] = [];
  for (const o of orders) {
    const side = o.transactionType === 'BUY' ? 'buy' : 'sell';
    const short = o.orderType === 'LIMIT' ? 'LMT' : o.orderType;
    if (o.price && o.orderType !== 'MARKET' && o.orderType !== 'SL-M') {
      lines.push({
        id: `${o.orderId}:price`,
        price: o.price,
        kind: side,
        title: `${o.transactionType} ${o.pendingQuantity} ${short}`,
        label: `${o.transactionType} ${o.pendingQuantity} ${o.orderType} @ ${at(o.price)} · order ${o.orderId}`,
      });
    }
    if (o.triggerPrice && (o.orderType === 'SL' || o.orderType === 'SL-M')) {
      lines.push({
        id: `${o.orderId}:trigger`,
        price: o.triggerPrice,
        kind: 'trigger',
        title: `${o.transactionType} TRG`,
        label: `${o.transactionType} ${o.pendingQuantity} ${o.orderType} trigger ${at(o.triggerPrice)} · order ${o.orderId}`,
      });
    }
  }
  if (position && position.quantity !== 0 && position.averagePrice > 0) {
    lines.push({
      id: 'position',
      price: position.averagePrice,
      kind: 'position',
      title: `POS ${position.quantity > 0 ? '+' : ''}${position.quantity}`,
      label: `Position ${position.quantity > 0 ? '+' : ''}${position.quantity} avg ${at(position.averagePrice)}`,
    });
  }
  return lines;
}
