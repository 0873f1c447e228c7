import { LineSeries, LineStyle, type ISeriesApi, type UTCTimestamp, type WhitespaceData } from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { studyLines, type StudyLine, type StudySpec } from '@shared/studies/study-spec';
import { chartPriceFormat, type CandleChart } from './use-candle-chart';
import type { Bar } from './candle-model';

/** A bar's session for the VWAP: its IST date (bar times are IST seconds, docs/desk.md §Chart studies and drawings). */
const sessionOf = (bar: Bar): number => Math.floor(bar.time / 86_400);

/** Line colours by study kind, fixed in both themes (the legend names each line beside its colour). */
const COLOURS: Record<StudySpec['kind'], string> = {
  vwap: '#b05cff',
  ema: '#f2a93b',
  sma: '#3bb6f2',
  bb: '#8a9bb8',
  rsi: '#b05cff',
};

/** The bars a study reads: the history with the forming bar in place of (or after) its last. */
export function withForming(bars: readonly Bar[], forming: Bar | undefined): readonly Bar[] {
  const last = bars.at(-1);
  if (!forming || !last || forming.time < last.time) return bars;
  return forming.time === last.time ? [...bars.slice(0, -1), forming] : [...bars, forming];
}

/** The studies' lines over `bars` (the forming bar included: it moves with each tick). */
export function useStudyValues(studies: readonly StudySpec[], bars: readonly Bar[]): StudyLine[] {
  return useMemo(() => studies.flatMap((s) => studyLines(s, bars, sessionOf)), [studies, bars]);
}

type Point = { time: UTCTimestamp; value: number } | WhitespaceData<UTCTimestamp>;

/**
 * Draws the studies' lines on the chart: over the candles, or (RSI) in a pane of its own under
 * them with its 30 and 70 levels. Series are made and removed as studies come and go; a tick
 * only replaces each line's data.
 */
export function useStudySeries(
  api: CandleChart | null,
  lines: readonly StudyLine[],
  bars: readonly Bar[],
  tickSize: number | undefined,
): void {
  const drawn = useRef(new Map<string, ISeriesApi<'Line'>>());
  const key = lines.map((l) => l.id).join('|');
  useEffect(() => {
    if (!api) return;
    const series = drawn.current;
    const wanted = new Set(lines.map((l) => l.id));
    for (const [id, s] of series) {
      if (!wanted.has(id)) {
        api.chart.removeSeries(s);
        series.delete(id);
      }
    }
    for (const l of lines) {
      if (series.has(l.id)) continue;
      const kind = l.id.split(':')[0]?.split('/')[0] as StudySpec['kind'];
      const oscillator = l.pane === 'oscillator';
      const s = api.chart.addSeries(
        LineSeries,
        {
          color: COLOURS[kind] ?? '#8a9bb8',
          lineWidth: 1,
          lineStyle: l.id.endsWith('/middle') ? LineStyle.Dashed : LineStyle.Solid,
          priceLineVisible: false,
          lastValueVisible: true,
          crosshairMarkerVisible: false,
          // The legend above the chart names each line; axis titles would cover the candles' labels.
          ...(oscillator ? { priceFormat: { type: 'price' as const, precision: 1, minMove: 0.1 } } : {}),
        },
        oscillator ? 1 : 0,
      );
      if (oscillator) {
        for (const level of [30, 70]) {
          s.createPriceLine({ price: level, color: '#8a9bb8', lineStyle: LineStyle.Dotted, lineWidth: 1, title: '' });
        }
        api.chart.panes()[1]?.setHeight(90);
      }
      series.set(l.id, s);
    }
    return undefined;
    // `key` stands for the set of lines: series are made and removed only when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);

  // Price-pane lines read in the instrument's tick, like the candles.
  useEffect(() => {
    if (!api || tickSize === undefined) return;
    for (const l of lines) {
      if (l.pane === 'price') drawn.current.get(l.id)?.applyOptions({ priceFormat: chartPriceFormat(tickSize) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key, tickSize]);

  useEffect(() => {
    if (!api) return;
    for (const l of lines) {
      const s = drawn.current.get(l.id);
      if (!s) continue;
      const points: Point[] = bars.map((b, i) => {
        const v = l.values[i];
        return v === null || v === undefined
          ? { time: b.time as UTCTimestamp }
          : { time: b.time as UTCTimestamp, value: v };
      });
      s.setData(points);
    }
  }, [api, lines, bars]);

  // The chart itself goes with its element; forget its series then.
  useEffect(() => {
    const series = drawn.current;
    return () => series.clear();
  }, [api]);
}
