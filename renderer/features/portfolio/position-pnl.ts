import type { Holding, Position } from '../../../shared/domain/portfolio';
import { fromUnits, toUnits } from '../../../shared/trading/money';

/**
 * P&L marked at the latest tick.
 *
 * The broker's figures are as of its last poll; ticks arrive ten times a second. Re-marking the
 * open quantity at the newest price keeps P&L moving with the LTP next to it (a trader who sees
 * the price move and the P&L stand still stops trusting both). Realised P&L is the broker's.
 * Sums are in integer price units so a column of ₹0.05s adds up exactly.
 */
export function markPosition(p: Position, ltp: number | undefined): { ltp: number; unrealised: number; pnl: number } {
  const last = ltp ?? p.lastPrice;
  if (ltp === undefined || p.quantity === 0) return { ltp: last, unrealised: p.unrealisedPnl, pnl: p.pnl };
  const unrealisedUnits = (toUnits(last) - toUnits(p.averagePrice)) * p.quantity;
  return {
    ltp: last,
    unrealised: fromUnits(unrealisedUnits),
    pnl: fromUnits(toUnits(p.realisedPnl) + unrealisedUnits),
  };
}

/** A holding's P&L at the latest tick. */
export function markHolding(h: Holding, ltp: number | undefined): { ltp: number; pnl: number } {
  if (ltp === undefined) return { ltp: h.lastPrice, pnl: h.pnl };
  return { ltp, pnl: fromUnits((toUnits(ltp) - toUnits(h.averagePrice)) * h.quantity) };
}

/** Exact sum of rupee amounts (via integer price units). */
export function sumRupees(values: readonly number[]): number {
  return fromUnits(values.reduce((acc, v) => acc + toUnits(v), 0));
}
