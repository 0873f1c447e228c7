import type { Instrument } from '@shared/domain/instrument';
import type { Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { istDate } from '@shared/lib/ist-time';
import { daySummary, type ChargeableFill, type DaySummary } from '@shared/trading/charges';

/**
 * The trade book's model, without React: fills newest first and the day's summary
 * (docs/desk.md §Trade book).
 */

/**
 * The trading day (IST) the market's clock is in, or null before the clock is read. The paper
 * market's clock may be simulated, so the day is the market's, never the machine's.
 */
export function tradingDay(marketNow: string | undefined): string | null {
  return marketNow === undefined ? null : istDate(Date.parse(marketNow));
}

/**
 * The fills of `day` (all of them while the day is unknown). A broker that returns earlier
 * sessions' fills too (the paper broker keeps them) must not add yesterday to today's figures.
 */
export function fillsOfDay(trades: readonly Trade[], day: string | null): Trade[] {
  return day === null ? [...trades] : trades.filter((t) => istDate(Date.parse(t.filledAt)) === day);
}

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
