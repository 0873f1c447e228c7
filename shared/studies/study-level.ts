import { ema, vwap, type StudyBar } from './indicators';

/** A study an alert can cross: the session's VWAP, or an EMA of the closes. */
export type LevelStudy = { readonly kind: 'vwap' } | { readonly kind: 'ema'; readonly period: number };

/**
 * The study's level now, for an alert on a cross of it (docs/contract.md §Alerts that place
 * orders), from the same math the chart draws (`indicators.ts`): `bars` are the session's closed
 * bars, oldest first, and `live` the last price. The EMA takes the live price as the close of the
 * bar still forming, so it moves with each tick as the chart's last point does; the VWAP is the
 * session's up to its last closed bar (the forming bar's volume is not known yet). Null while the
 * study is not defined (fewer closes than the period, or no volume traded): unknown never fires.
 */
export function studyLevel(study: LevelStudy, bars: readonly StudyBar[], live: number): number | null {
  if (study.kind === 'ema') {
    const series = ema([...bars.map((b) => b.close), live], study.period);
    return series[series.length - 1] ?? null;
  }
  if (bars.length === 0) return null;
  const series = vwap(bars, () => 0);
  return series[series.length - 1] ?? null;
}
