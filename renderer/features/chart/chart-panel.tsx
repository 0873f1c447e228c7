import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { CandleInterval, type Candle } from '@shared/domain/market';
import type { Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { istDate } from '@shared/lib/ist-time';
import { describeError } from '../../lib/describe-error';
import { formatIstDateTime, formatPrice, formatQty } from '../../lib/format';
import { useTheme } from '../../state/settings-store';
import { useTicketActions, useTicketDraft } from '../ticket/ticket-store';
import { Panel } from '../layout/panel';
import { LivePrice } from '../market/live-price';
import { TickBox } from '../../lib/tick-box';
import { marketQueries } from '../market/queries';
import { useMarketSubscription } from '../market/use-market-subscription';
import { NeedsMarketData } from '../session/no-market-data';
import { useQuote } from '../market/use-quotes';
import type { Quote } from '../market/quote-cache';
import type { Instrument } from '@shared/domain/instrument';
import { useShownInstrument } from '../market/use-shown-instrument';
import { usePanelOption } from '../workstation/use-panel-option';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import {
  applyTick,
  barStartMs,
  orderAtPrice,
  priceLinesOf,
  toBars,
  workingOf,
  type Bar,
  type PriceLine,
} from './candle-model';
import { ChartTradingBar } from './chart-trading-bar';
import { useChartTrading } from './use-chart-trading';
import { StudyPicker } from './study-picker';
import { DrawingsList, useChartDrawings, useDrawClicks, useTrendSeries } from './use-drawings';
import { useStudySeries, useStudyValues, withForming } from './use-studies';
import { formatStudies, parseStudies, type StudyLine, type StudySpec } from '@shared/studies/study-spec';
import {
  candlePoint,
  type CandleChart,
  useCandleChart,
  useChartClick,
  useLineDrag,
  usePriceLines,
  usePriceScale,
  volumePoint,
} from './use-candle-chart';

const INTERVALS: ReadonlyArray<readonly [CandleInterval, string]> = [
  ['minute', '1m'],
  ['5minute', '5m'],
  ['15minute', '15m'],
  ['60minute', '1h'],
  ['day', '1D'],
];

const NO_CANDLES: Candle[] = [];
const NO_ORDERS: Order[] = [];

const isCandleInterval = (v: unknown): v is CandleInterval => CandleInterval.safeParse(v).success;
const isText = (v: unknown): v is string => typeof v === 'string';

/** The stored choice of studies; text that does not read shows none rather than a wrong one. */
function readStudies(text: string): StudySpec[] {
  try {
    return parseStudies(text);
  } catch {
    return [];
  }
}

/**
 * Candles of the selected instrument (or the first on the watchlist) with volume, the forming
 * candle moved live by ticks, and the trader's working orders and position average as price
 * lines. Clicking a price opens the ticket there: a LIMIT, or an SL when that side of the
 * market would fill a limit at once.
 *
 * The legend (OHLCV of the last candle) and the list of lines are real text, so a screen
 * reader — and the e2e tests — read what the canvas shows.
 *
 * On an account without market data it says so instead (docs/kite.md §The plan).
 */
export function ChartPanel() {
  return (
    <NeedsMarketData title="Chart" className="chart-panel" what="Candles and live prices">
      <LiveChartPanel />
    </NeedsMarketData>
  );
}

/** The trader's working orders and position in the shown instrument, and the price lines they make. */
function useChartHoldings(token: number | null, tickSize: number | undefined) {
  const keptWorking = useRef<Order[] | null>(null);
  const selectWorking = useCallback(
    (orders: Order[]) => (keptWorking.current = workingOf(orders, token ?? 0, keptWorking.current)),
    [token],
  );
  const working = useQuery({ ...orderQueries.list(), select: selectWorking }).data;
  const selectPosition = useCallback(
    (ps: Position[]) => ps.find((p) => p.instrumentToken === token && p.quantity !== 0) ?? null,
    [token],
  );
  const position = useQuery({ ...portfolioQueries.positions(), select: selectPosition }).data ?? null;
  const lines = useMemo(() => priceLinesOf(working ?? [], position, tickSize), [working, position, tickSize]);
  return { working: working ?? NO_ORDERS, position, lines };
}

/**
 * History into the series, then each tick moves the forming candle (or opens the next one).
 * Returns the bar the chart last drew, for the legend.
 */
function useLiveCandles(
  api: CandleChart | null,
  bars: readonly Bar[],
  quote: Quote | undefined,
  interval: CandleInterval,
): Bar | undefined {
  const forming = useRef<Bar | undefined>(undefined);
  const lastVolume = useRef<number | null>(null);
  // The legend shows the bar the chart last drew; the effects below publish it like the chart.
  const legendStore = useMemo(() => valueStore<Bar | undefined>(undefined), []);
  const legend = useSyncExternalStore(legendStore.subscribe, legendStore.get);
  useEffect(() => {
    if (!api) return;
    api.candles.setData(bars.map(candlePoint));
    api.volume.setData(bars.map(volumePoint));
    api.chart.applyOptions({ timeScale: { timeVisible: interval !== 'day', secondsVisible: false } });
    if (bars.length > 0) api.chart.timeScale().scrollToRealTime();
    forming.current = bars.at(-1);
    lastVolume.current = null;
    legendStore.set(bars.at(-1));
  }, [api, bars, interval, legendStore]);

  useEffect(() => {
    if (!api || !quote || bars.length === 0) return;
    const traded = lastVolume.current === null ? 0 : quote.volume - lastVolume.current;
    lastVolume.current = quote.volume;
    const next = applyTick(forming.current, quote, interval, traded);
    if (!next) return;
    forming.current = next;
    api.candles.update(candlePoint(next));
    api.volume.update(volumePoint(next));
    legendStore.set(next);
  }, [api, quote, interval, bars, legendStore]);
  return legend;
}

/**
 * A click on the chart: while drawing, a drawing's point (its end on the nearest bar; the last
 * past the end); otherwise the ticket, priced at that level.
 */
function useChartClicks(
  api: CandleChart | null,
  instrument: Instrument | undefined,
  quote: Quote | undefined,
  drawing: ReturnType<typeof useChartDrawings>,
  studyBars: readonly Bar[],
): void {
  const side = useTicketDraft().side;
  const { ticketOpened, draftEdited } = useTicketActions();
  useDrawClicks(api, drawing.mode !== 'none', (price, logical) => {
    const at =
      logical === null ? undefined : studyBars[Math.max(0, Math.min(studyBars.length - 1, Math.round(logical)))];
    drawing.onClick(price, at?.time ?? null);
  });
  useChartClick(api, (price) => {
    if (!instrument || drawing.mode !== 'none') return;
    const order = orderAtPrice(side, price, quote?.lastPrice ?? instrument.lastPrice, instrument.tickSize);
    if (!order) return;
    ticketOpened(side, instrument);
    draftEdited(order);
  });
}

function LiveChartPanel() {
  const { token, instrument } = useShownInstrument();
  const [interval, setChartInterval] = usePanelOption<CandleInterval>('interval', '5minute', isCandleInterval);
  const [studyText, setStudyText] = usePanelOption<string>('studies', '', isText);
  const studies = useMemo(() => readStudies(studyText), [studyText]);
  const onStudies = useCallback((next: StudySpec[]) => setStudyText(formatStudies(next)), [setStudyText]);
  useMarketSubscription('chart', token === null ? [] : [token]);

  const candles = useQuery({ ...marketQueries.candles(token ?? 0, interval), enabled: token !== null });
  const quote = useQuote(token);
  const tick = instrument?.tickSize;
  const { working, position, lines } = useChartHoldings(token, tick);

  const theme = useTheme();
  const [box, api] = useCandleChart(theme);
  const lastPrice = quote?.lastPrice ?? instrument?.lastPrice ?? null;
  const trading = useChartTrading(instrument, working, position, lastPrice, lines);
  const drag = useLineDrag(api, trading.lines, trading.onDrop);
  const drawing = useChartDrawings(instrument ?? null);
  const drawn = useMemo(
    () => [...withDragged(trading.lines, drag), ...drawing.priceLines],
    [trading.lines, drag, drawing.priceLines],
  );
  usePriceLines(api, drawn, theme);
  useTrendSeries(api, drawing.drawings.trends, theme);
  usePriceScale(api, tick);

  const data = candles.data ?? NO_CANDLES;
  const bars = useMemo(() => toBars(data, interval), [data, interval]);
  const legend = useLiveCandles(api, bars, quote, interval);
  // Studies over the history and the forming bar (docs/desk.md §Chart studies and drawings).
  const studyBars = useMemo(() => withForming(bars, legend), [bars, legend]);
  const studyLines = useStudyValues(studies, studyBars);
  useStudySeries(api, studyLines, studyBars, tick);
  useChartClicks(api, instrument, quote, drawing, studyBars);

  return (
    <Panel
      title="Chart"
      className="chart-panel"
      actions={<IntervalPicker interval={interval} onChange={setChartInterval} />}
    >
      <div className="chart__legend" data-testid="chart-legend">
        {instrument ? (
          <>
            <strong className="chart__sym">{instrument.tradingsymbol}</strong>
            <span className="muted">{instrument.exchange}</span>
            {/* The price's box sits in a slot: a flex item cannot lay out alone (tick-box.tsx). */}
            <span className="chart__ltp-slot">
              <TickBox text={formatPrice(quote?.lastPrice ?? instrument.lastPrice, instrument.tickSize)}>
                <LivePrice
                  quote={quote}
                  fallback={instrument.lastPrice}
                  tickSize={instrument.tickSize}
                  className="chart__ltp"
                />
              </TickBox>
            </span>
          </>
        ) : (
          <span className="muted">Select an instrument on the watchlist</span>
        )}
        {legend ? <LastCandle bar={legend} interval={interval} tick={tick} /> : null}
        <span className="chart__count muted small" data-testid="chart-candle-count" data-count={bars.length}>
          {bars.length > 0 ? `${bars.length} candles` : ''}
        </span>
        {/* In the legend's row, not the panel's header: the header is full at 1280 px. */}
        <ChartTools studies={studies} onStudies={onStudies} mode={drawing.mode} onMode={drawing.setMode} />
      </div>
      <StudyReadout lines={studyLines} tick={tick} />
      <div className="chart__frame">
        <div ref={box} className="chart__canvas" data-testid="chart-canvas" aria-hidden="true" />
        <ChartOverlays
          drawing={drawing}
          interval={interval}
          loading={token !== null && candles.isPending}
          error={candles.error}
          onRetry={() => void candles.refetch()}
        />
      </div>
      <LineList lines={trading.lines} />
      <DrawingsList instrument={instrument ?? null} drawings={drawing.drawings} onRemove={drawing.remove} />
      <ChartTradingBar trading={trading} tickSize={tick} position={position ? position.quantity : null} />
      {/* The how-to is a tooltip (and opens on a click), so the canvas keeps the panel's height. */}
      <details className="chart__credit muted">
        <summary title={CHART_HELP}>How to trade on the chart (?) · Charts: TradingView Lightweight Charts™</summary>
        {CHART_HELP}
      </details>
    </Panel>
  );
}

/**
 * The lines as text, for a screen reader and the e2e tests. Rendered only when the lines change,
 * not on each tick the panel renders for: an instrument may have hundreds (docs/ladder.md §Speed).
 */
const LineList = memo(function LineList(props: { readonly lines: readonly PriceLine[] }) {
  return (
    <ul className="chart__lines" aria-label="Price lines">
      {props.lines.map((l) => (
        <li key={l.id} className={`chart-line chart-line--${l.kind}`} data-line-id={l.id}>
          {l.label}
        </li>
      ))}
    </ul>
  );
});

function IntervalPicker(props: { readonly interval: CandleInterval; readonly onChange: (i: CandleInterval) => void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Interval">
      {INTERVALS.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={props.interval === value}
          aria-label={value}
          className={props.interval === value ? 'is-on' : undefined}
          onClick={() => props.onChange(value)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** The last candle's OHLCV, as text a screen reader (and the e2e tests) read. */
function LastCandle(props: {
  readonly bar: Bar;
  readonly interval: CandleInterval;
  readonly tick: number | undefined;
}) {
  const { bar, tick } = props;
  return (
    <span
      className="chart__ohlc"
      data-testid="chart-last-candle"
      data-time={bar.time}
      data-high={bar.high}
      data-low={bar.low}
      data-close={bar.close}
    >
      <span title="Bar start (IST)">
        {props.interval === 'day' ? istDate(barStartMs(bar.time)) : formatIstDateTime(barStartMs(bar.time))}
      </span>{' '}
      O <Figure text={formatPrice(bar.open, tick)} /> H <Figure text={formatPrice(bar.high, tick)} /> L{' '}
      <Figure text={formatPrice(bar.low, tick)} /> C <Figure text={formatPrice(bar.close, tick)} /> V{' '}
      <Figure text={formatQty(bar.volume)} />
    </span>
  );
}

/** One of the last candle's figures, moved by ticks: in a box of its own (`TickBox`). */
function Figure({ text }: { readonly text: string }) {
  return <TickBox text={text} className="chart__figure" />;
}

/**
 * The studies picker and the drawing tools (a horizontal line, a trend line). Memoised: the panel
 * renders on every tick of its instrument, and each render of a form control writes its
 * attributes again (docs/live-data.md §A ticking list's cost).
 */
const ChartTools = memo(function ChartTools(props: {
  readonly studies: readonly StudySpec[];
  readonly onStudies: (next: StudySpec[]) => void;
  readonly mode: ReturnType<typeof useChartDrawings>['mode'];
  readonly onMode: ReturnType<typeof useChartDrawings>['setMode'];
}) {
  const drawing = { mode: props.mode, setMode: props.onMode };
  return (
    <span className="chart__tools">
      <StudyPicker studies={props.studies} onChange={props.onStudies} />
      <div className="segmented" role="group" aria-label="Draw">
        <button
          type="button"
          aria-pressed={drawing.mode === 'line'}
          className={drawing.mode === 'line' ? 'is-on' : undefined}
          aria-label="Draw a line"
          title="Draw a horizontal line: click a price on the chart"
          onClick={() => drawing.setMode('line')}
        >
          ─
        </button>
        <button
          type="button"
          aria-pressed={drawing.mode === 'trend'}
          className={drawing.mode === 'trend' ? 'is-on' : undefined}
          aria-label="Draw a trend line"
          title="Draw a trend line: click its two ends on the chart"
          onClick={() => drawing.setMode('trend')}
        >
          ╱
        </button>
      </div>
    </span>
  );
});

/** Each study's latest value, as text. */
function StudyReadout(props: { readonly lines: readonly StudyLine[]; readonly tick: number | undefined }) {
  if (!props.lines.length) return null;
  return (
    <div className="chart__studies small" data-testid="chart-studies" aria-label="Studies">
      {props.lines.map((l) => {
        const v = l.values.at(-1) ?? null;
        return (
          <span key={l.id} className="chart__study" data-study={l.id} data-value={v ?? ''}>
            {l.label} <b>{v === null ? '–' : l.pane === 'price' ? formatPrice(v, props.tick) : v.toFixed(1)}</b>
          </span>
        );
      })}
    </div>
  );
}

/** Over the chart, so the canvas keeps its size: what a drawing click does next, loading, a failed read. */
function ChartOverlays(props: {
  readonly drawing: ReturnType<typeof useChartDrawings>;
  readonly interval: CandleInterval;
  readonly loading: boolean;
  readonly error: unknown;
  readonly onRetry: () => void;
}) {
  const { drawing, interval } = props;
  return (
    <>
      {drawing.mode !== 'none' ? (
        <p className="chart__hint small" role="status">
          {drawing.mode === 'line'
            ? 'Click a price on the chart to draw a line there'
            : drawing.pending
              ? 'Click the trend line’s second end'
              : 'Click the trend line’s first end on a candle'}
        </p>
      ) : null}
      {props.loading ? (
        <div className="chart__overlay" role="progressbar" aria-label={`Loading ${interval} candles`}>
          <span className="spinner" /> Loading {interval} candles…
        </div>
      ) : null}
      {props.error ? (
        <div className="chart__overlay chart__overlay--error" aria-live="polite">
          Could not load candles: {describeError(props.error)}{' '}
          <button type="button" onClick={props.onRetry}>
            Retry
          </button>
        </div>
      ) : null}
    </>
  );
}

const CHART_HELP =
  "Click the chart to price an order there · drag an order's line to move it, or the position's line to set a stop-loss or target";

/** The lines with the one being dragged drawn where the pointer is (its title says the new price). */
function withDragged(lines: readonly PriceLine[], drag: { line: PriceLine; price: number } | null): PriceLine[] {
  if (!drag) return [...lines];
  return [
    ...lines,
    { ...drag.line, id: `${drag.line.id}:drag`, price: drag.price, kind: 'draft', title: `→ ${drag.line.title}` },
  ];
}

/** A value with change notification, for state that effects publish (the chart's last bar). */
function valueStore<T>(initial: T): { get: () => T; set: (v: T) => void; subscribe: (l: () => void) => () => void } {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (v) => {
      if (v === value) return;
      value = v;
      for (const l of listeners) l();
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
