import type { Holding, Position } from '@shared/domain/portfolio';
import { fromUnits, toUnits } from '@shared/trading/money';

/**
 * P&L marked at the latest tick, in integer price units (docs/api.md §Numbers and money units).
 *
 * The broker's figures are as of its last poll; ticks arrive ten times a second. Re-marking at
 * the newest price keeps P&L moving with the LTP next to it (a trader who sees the price move
 * and the P&L stand still stops trusting both). It is recomputed from the exact values the
 * broker reports — never from the average price, which is rounded: fills of 1,000 at 100 and
 * 2,000 at 100.05 average 100.0333…, and re-marking that at 101 is off by ₹0.10 — so the figure
 * is the same whether the last price came from a tick or from the poll.
 */

/** A position's figures at one last price. */
export interface PositionMark {
  readonly ltp: number;
  /** Total P&L of the day's position: sell value − buy value + quantity × LTP × multiplier. */
  readonly pnl: number;
  /** The part of `pnl` still open: total minus what the broker says is realised. */
  readonly unrealised: number;
  /** The day's P&L: the overnight quantity counts from the previous close, not from its cost. */
  readonly m2m: number;
}

/** A position at the latest tick (or at the broker's last price when there is none). */
export function markPosition(p: Position, ltp: number | undefined): PositionMark {
  const last = ltp ?? p.lastPrice;
  const open = p.quantity * toUnits(last) * p.multiplier;
  const pnl = toUnits(p.sellValue) - toUnits(p.buyValue) + open;
  const carried = p.overnightQuantity * toUnits(p.closePrice) * p.multiplier;
  const m2m = toUnits(p.daySellValue) - toUnits(p.dayBuyValue) + open - carried;
  return {
    ltp: last,
    pnl: fromUnits(pnl),
    unrealised: fromUnits(pnl - toUnits(p.realisedPnl)),
    m2m: fromUnits(m2m),
  };
}

/**
 * A holding at the latest tick: its value, and the broker's P&L moved by the quantity times the
 * change since the broker's last price (exact, where re-marking the rounded average is not).
 */
export function markHolding(h: Holding, ltp: number | undefined): { ltp: number; value: number; pnl: number } {
  const last = ltp ?? h.lastPrice;
  const moved = h.quantity * (toUnits(last) - toUnits(h.lastPrice));
  return { ltp: last, value: fromUnits(h.quantity * toUnits(last)), pnl: fromUnits(toUnits(h.pnl) + moved) };
}

/** Exact sum of rupee amounts (via integer price units). */
export function sumRupees(values: readonly number[]): number {
  return fromUnits(values.reduce((acc, v) => acc + toUnits(v), 0));
}

/** The positions' figures summed at the latest ticks: what Funds and Positions' Total row both show. */
export interface PositionTotals {
  readonly unrealised: number;
  readonly realised: number;
  readonly pnl: number;
  readonly m2m: number;
}

/** Every position marked at its latest tick (`markPosition`) and summed exactly. */
export function positionTotals(
  positions: readonly Position[],
  lastPrice: (instrumentToken: number) => number | undefined,
): PositionTotals {
  const marks = positions.map((p) => markPosition(p, lastPrice(p.instrumentToken)));
  return {
    unrealised: sumRupees(marks.map((m) => m.unrealised)),
    realised: sumRupees(positions.map((p) => p.realisedPnl)),
    pnl: sumRupees(marks.map((m) => m.pnl)),
    m2m: sumRupees(marks.map((m) => m.m2m)),
  };
}
