import { LineSeries, LineStyle, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { roundToTick } from '@shared/trading/money';
import { describeError } from '../../lib/describe-error';
import { formatPrice } from '../../lib/format';
import { useCreateAlert } from '../alerts/queries';
import type { PriceLine } from './candle-model';
import { withLine, without, withTrend, type ChartPoint, type Drawings, type TrendLine } from './drawings-model';
import { useDrawings, useDrawingsActions } from './drawings-store';
import type { CandleChart } from './use-candle-chart';

/** What the next click on the chart draws: nothing (it prices the ticket), a line, or a trend line. */
export type DrawMode = 'none' | 'line' | 'trend';

/**
 * The instrument's drawings and the chart's drawing mode (docs/desk.md §Chart studies and
 * drawings). `onClick` takes a click while a mode is on and says whether it drew (the click then
 * does not price the ticket).
 */
export function useChartDrawings(instrument: Instrument | null) {
  const token = instrument?.instrumentToken ?? null;
  const drawings = useDrawings(token);
  const { drawingsChanged } = useDrawingsActions();
  const [mode, setMode] = useState<DrawMode>('none');
  // A trend line's first end, with the instrument it was drawn on: it does not carry over to another.
  const [started, setFirst] = useState<{ token: number; at: ChartPoint } | null>(null);
  const first = started !== null && started.token === token ? started.at : null;
  const tick = instrument?.tickSize ?? 0.05;
  const change = (f: (d: Drawings) => Drawings) => token !== null && drawingsChanged(token, f);

  const onClick = (price: number, time: number | null): boolean => {
    if (mode === 'none' || token === null) return false;
    if (mode === 'line') {
      change((d) => withLine(d, price, tick));
      setMode('none');
      return true;
    }
    if (time === null) return true; // a trend line's ends sit on bars
    if (!first) {
      setFirst({ token, at: { time, price } });
      return true;
    }
    const from = first;
    change((d) => withTrend(d, from, { time, price }, tick));
    setFirst(null);
    setMode('none');
    return true;
  };

  // Stable, so the memoised tools that take it are not drawn again on each tick (chart-panel.tsx).
  const toggleMode = useCallback((m: DrawMode) => {
    setFirst(null);
    setMode((now) => (now === m ? 'none' : m));
  }, []);

  const priceLines = useMemo<PriceLine[]>(
    () =>
      drawings.lines.map((l) => ({
        id: `drawn:${l.id}`,
        price: l.price,
        kind: 'drawn',
        title: 'LINE',
        label: `Line ${formatPrice(l.price, tick)}`,
      })),
    [drawings.lines, tick],
  );

  return {
    drawings,
    priceLines,
    mode,
    pending: first,
    onClick,
    setMode: toggleMode,
    remove: (id: string) => change((d) => without(d, id)),
  };
}

/**
 * While a drawing mode is on, each click on the chart is a point for it: read from the DOM's own
 * click events, as the library reports two quick clicks as one double click and a trend line's
 * two ends are often that quick. `onPoint` gets the price and the logical bar index under it.
 */
export function useDrawClicks(
  api: CandleChart | null,
  on: boolean,
  onPoint: (price: number, logical: number | null) => void,
): void {
  const latest = useRef(onPoint);
  useEffect(() => {
    latest.current = onPoint;
  });
  useEffect(() => {
    if (!api || !on) return;
    const el = api.chart.chartElement();
    const handler = (e: MouseEvent): void => {
      const box = el.getBoundingClientRect();
      const price = api.candles.coordinateToPrice(e.clientY - box.top);
      if (price === null) return;
      latest.current(price, api.chart.timeScale().coordinateToLogical(e.clientX - box.left));
    };
    el.addEventListener('click', handler);
    return () => el.removeEventListener('click', handler);
  }, [api, on]);
}

/** Draws the trend lines, each a two-point line series over the candles. */
export function useTrendSeries(api: CandleChart | null, trends: readonly TrendLine[], theme: string): void {
  const drawn = useRef<ISeriesApi<'Line'>[]>([]);
  useEffect(() => {
    if (!api) return;
    for (const s of drawn.current) api.chart.removeSeries(s);
    const colour = getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#d9e0ec';
    drawn.current = trends.map((t) => {
      const s = api.chart.addSeries(LineSeries, {
        color: colour,
        lineWidth: 1,
        lineStyle: LineStyle.Solid,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
      });
      s.setData([
        { time: t.from.time as UTCTimestamp, value: t.from.price },
        { time: t.to.time as UTCTimestamp, value: t.to.price },
      ]);
      return s;
    });
    return () => {
      // The chart may already be gone with its element; its series went with it.
      try {
        for (const s of drawn.current) api.chart.removeSeries(s);
      } catch {
        /* removed with the chart */
      }
      drawn.current = [];
    };
  }, [api, trends, theme]);
}

/**
 * The list of drawings under the chart: each horizontal line with **Alert** (a price alert when
 * the price crosses it, docs/contract.md §Price alerts) and **Remove**; each trend line with Remove.
 */
export function DrawingsList({
  instrument,
  drawings,
  onRemove,
}: {
  readonly instrument: Instrument | null;
  readonly drawings: Drawings;
  readonly onRemove: (id: string) => void;
}) {
  const create = useCreateAlert();
  const [said, setSaid] = useState<Record<string, string>>({});
  const tick = instrument?.tickSize;
  if (!instrument || (drawings.lines.length === 0 && drawings.trends.length === 0)) return null;
  const alert = (id: string, price: number) => {
    const at = roundToTick(price, instrument.tickSize);
    create.mutate(
      { instrumentToken: instrument.instrumentToken, condition: 'crosses', price: at },
      {
        onSuccess: () => setSaid((s) => ({ ...s, [id]: `Alert set: crosses ${formatPrice(at, tick)}` })),
        onError: (e) => setSaid((s) => ({ ...s, [id]: `Alert not set: ${describeError(e)}` })),
      },
    );
  };
  return (
    <ul className="chart__drawings small" aria-label="Drawings">
      {drawings.lines.map((l) => (
        <li key={l.id} className="chart-drawing" data-drawing={l.id} data-price={l.price}>
          Line {formatPrice(l.price, tick)}
          <button type="button" onClick={() => alert(l.id, l.price)} title="Alert when the price crosses this line">
            Alert
          </button>
          <button type="button" aria-label={`Remove line ${formatPrice(l.price, tick)}`} onClick={() => onRemove(l.id)}>
            ✕
          </button>
          {said[l.id] ? (
            <span className="muted" role="status">
              {said[l.id]}
            </span>
          ) : null}
        </li>
      ))}
      {drawings.trends.map((t) => (
        <li key={t.id} className="chart-drawing" data-drawing={t.id}>
          Trend {formatPrice(t.from.price, tick)} → {formatPrice(t.to.price, tick)}
          <button
            type="button"
            aria-label={`Remove trend ${formatPrice(t.from.price, tick)} to ${formatPrice(t.to.price, tick)}`}
            onClick={() => onRemove(t.id)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
