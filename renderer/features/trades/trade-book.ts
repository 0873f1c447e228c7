import type { Instrument } from '@shared/domain/instrument';
import type { Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { daySummary, type ChargeableFill, type DaySummary } from '@shared/trading/charges';

/**
 * The trade book's model, without React: fills newest first and the day's summary
 * (docs/desk.md §Trade book).
 */

/** Fills newest first; ties (one order's parts in the same second) by trade id, latest first. */
export function newestFirst(trades: readonly Trade[]): Trade[] {
  return [...trades].sort(
    (a, b) => Date.parse(b.filledAt) - Date.parse(a.filledAt) || b.tradeId.localeCompare(a.tradeId),
  );
}

/** A fill with the rupee multiplier of its instrument (1 when the instrument is unknown yet). */
export function chargeable(t: Trade, byToken: ReadonlyMap<number, Instrument>): ChargeableFill {
  return { ...t, multiplier: byToken.get(t.instrumentToken)?.multiplier ?? 1 };
}

/**
 * The day's summary, or null before the trades are read. Realised P&L is the positions' sum;
 * null positions (not read, or the read failed) make realised and net null, never zero.
 */
export function summariseDay(
  trades: readonly Trade[] | undefined,
  positions: readonly Position[] | undefined,
  byToken: ReadonlyMap<number, Instrument>,
): { readonly summary: DaySummary; readonly realisedKnown: boolean } | null {
  if (!trades) return null;
  const realised = positions?.reduce((sum, p) => sum + p.realisedPnl, 0);
  return {
    summary: daySummary(
      trades.map((t) => chargeable(t, byToken)),
      realised ?? 0,
    ),
    realisedKnown: realised !== undefined,
  };
}
