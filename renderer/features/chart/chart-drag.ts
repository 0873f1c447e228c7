import type { Order, OrderChanges, TransactionType } from '@shared/domain/order';
import { roundToTick } from '@shared/trading/money';
import type { PriceLine } from './candle-model';

/**
 * Chart trading without React (docs/brackets.md §On the chart): which line a press grabs, and
 * what dropping it at a price asks for — a working order's new price, or a stop-loss or target
 * drawn out of the position's average line.
 */

/** How close (px) to a line a press grabs it. */
export const GRAB_PX = 6;

/** The line under a press at `y`: the nearest draggable one within `GRAB_PX`, or null. */
export function lineAt(
  lines: readonly PriceLine[],
  y: number,
  toY: (price: number) => number | null,
  grab = GRAB_PX,
): PriceLine | null {
  let best: { line: PriceLine; d: number } | null = null;
  for (const l of lines) {
    if (!draggable(l)) continue;
    const ly = toY(l.price);
    if (ly === null) continue;
    const d = Math.abs(ly - y);
    if (d <= grab && (best === null || d < best.d)) best = { line: l, d };
  }
  return best?.line ?? null;
}

/** Order lines and the position's average line can be dragged; a line being modified cannot. */
export function draggable(l: PriceLine): boolean {
  return l.id === 'position' || /^[^:]+:(price|trigger)$/.test(l.id);
}

/** A working order moved on the chart: the changes to send, and the prices to show meanwhile. */
export interface ChartModify {
  readonly orderId: string;
  /** The line dragged (`<order id>:price` or `:trigger`). */
  readonly lineId: string;
  readonly label: string;
  readonly from: number;
  readonly to: number;
  readonly changes: OrderChanges;
}

/** An exit drawn out of the position's line. */
export interface ChartExit {
  readonly leg: 'stop' | 'target';
  readonly price: number;
}

/** What a drop asks for, or null (dropped where it was, or on no price). */
export type ChartDrop =
  { readonly t: 'modify'; readonly modify: ChartModify } | { readonly t: 'exit'; readonly exit: ChartExit };

/**
 * Dropping `line` at `price` (on the tick grid). A LIMIT moves its price; an SL-M its trigger; an
 * SL moves its trigger and limit together, keeping the gap between them (dragging either line).
 * The position's line gives a stop-loss on the losing side of the last price (below it for a
 * long) and a target on the winning side.
 */
export function dropOf(
  line: PriceLine,
  price: number,
  ctx: {
    readonly orders: readonly Pick<Order, 'orderId' | 'orderType' | 'price' | 'triggerPrice'>[];
    readonly positionSide: TransactionType | null;
    readonly lastPrice: number | null;
    readonly tickSize: number;
  },
): ChartDrop | null {
  const to = roundToTick(price, ctx.tickSize);
  if (!(to > 0)) return null;
  if (line.id === 'position') {
    if (ctx.positionSide === null || ctx.lastPrice === null || to === ctx.lastPrice) return null;
    const below = to < ctx.lastPrice;
    const long = ctx.positionSide === 'BUY';
    return { t: 'exit', exit: { leg: below === long ? 'stop' : 'target', price: to } };
  }
  const [orderId, which] = line.id.split(':');
  const o = ctx.orders.find((x) => x.orderId === orderId);
  if (!o || !orderId) return null;
  const from = line.price;
  if (to === from) return null;
  const base = { orderId, lineId: line.id, label: line.title, from, to };
  if (o.orderType === 'LIMIT') return { t: 'modify', modify: { ...base, changes: { price: to } } };
  if (o.orderType === 'SL-M') return { t: 'modify', modify: { ...base, changes: { triggerPrice: to } } };
  if (o.orderType === 'SL' && o.price !== null && o.triggerPrice !== null) {
    const delta = to - from;
    const moved = (p: number): number => roundToTick(p + delta, ctx.tickSize);
    const changes =
      which === 'trigger'
        ? { triggerPrice: to, price: moved(o.price) }
        : { price: to, triggerPrice: moved(o.triggerPrice) };
    return { t: 'modify', modify: { ...base, changes } };
  }
  return null;
}

/**
 * The lines while an order is being modified: its old line kept, marked as the old price, and a
 * line at the new price marked "modifying" — until the broker answers.
 */
export function withModifying(lines: readonly PriceLine[], m: ChartModify | null): PriceLine[] {
  if (!m) return [...lines];
  const out: PriceLine[] = [];
  for (const l of lines) {
    if (l.id !== m.lineId) {
      out.push(l);
      continue;
    }
    out.push({
      ...l,
      id: `${l.id}:was`,
      kind: 'ghost',
      title: `was ${l.title}`,
      label: `${l.label} · the old price, until the broker answers`,
    });
    out.push({
      ...l,
      id: `${l.id}:to`,
      price: m.to,
      title: `${l.title} …`,
      label: `${l.title} at ${m.to} (was ${m.from}) · modifying · order ${m.orderId}`,
    });
  }
  return out;
}

/** The exits drawn out of the position, not placed yet, as lines. */
export function draftLines(draft: { readonly stop: number | null; readonly target: number | null }): PriceLine[] {
  const out: PriceLine[] = [];
  if (draft.stop !== null)
    out.push({
      id: 'draft:stop',
      price: draft.stop,
      kind: 'draft',
      title: 'SL?',
      label: `Stop-loss ${draft.stop} (not placed)`,
    });
  if (draft.target !== null)
    out.push({
      id: 'draft:target',
      price: draft.target,
      kind: 'draft',
      title: 'TGT?',
      label: `Target ${draft.target} (not placed)`,
    });
  return out;
}
