import {
  CandlestickSeries,
  ColorType,
  createChart,
  CrosshairMode,
  HistogramSeries,
  LineStyle,
  TickMarkType,
  type CreatePriceLineOptions,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { priceDecimals } from '@shared/trading/money';
import type { Bar, PriceLine } from './candle-model';
import { lineAt } from './chart-drag';
import { inWindow, lineWindow, outgrown, type PriceWindow } from './price-line-window';

/** The chart and its two series, once created. */
export interface CandleChart {
  readonly chart: IChartApi;
  readonly candles: ISeriesApi<'Candlestick'>;
  readonly volume: ISeriesApi<'Histogram'>;
}

/** The chart's colours, by role. */
type Palette = Record<'bg' | 'text' | 'muted' | 'line' | 'up' | 'down' | 'buy' | 'sell' | 'warn' | 'accent', string>;

let cached: Palette | null = null;

/**
 * Theme colours come from the stylesheet's custom properties, so the chart follows the theme.
 * Read once per theme (`refreshPalette`), not per tick: reading computed style right after the
 * watchlist's prices changed forces the browser to recalculate the page's style inside that
 * frame (docs/benchmarks.md §ticks).
 */
function palette(): Palette {
  cached ??= readPalette();
  return cached;
}

/** Reads the theme's colours again (the theme changed); the next bars and lines use them. */
export function refreshPalette(): void {
  cached = readPalette();
}

function readPalette(): Palette {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return {
    bg: v('--panel', '#141a26'),
    text: v('--text', '#d9e0ec'),
    muted: v('--muted', '#8391a9'),
    line: v('--line', '#243049'),
    up: v('--up', '#26c281'),
    down: v('--down', '#f0565c'),
    buy: v('--buy', '#2f7cf6'),
    sell: v('--sell', '#e5484d'),
    warn: v('--warn', '#e8a93a'),
    accent: v('--accent', '#4c8dff'),
  };
}

/** `#26c281` → `rgba(38, 194, 129, a)` for translucent volume bars. */
function withAlpha(hex: string, a: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1]!, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

const time = (t: number): UTCTimestamp => t as UTCTimestamp;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The time axis's labels where a new day starts: "25 Nov" rather than the library's bare "25".
 * Bars exist only inside sessions (docs/api.md §Sessions and the calendar) and the axis places
 * them side by side, so the night, a weekend or a holiday takes no room: this label is where the
 * eye sees the jump from one session's close to the next one's open. Other labels are the
 * library's own (chart times are IST seconds, so its UTC clock reads IST).
 */
export function sessionTickMark(t: Time, type: TickMarkType): string | null {
  if (type !== TickMarkType.DayOfMonth || typeof t !== 'number') return null;
  const d = new Date(t * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/**
 * Owns one lightweight-charts instance in the element the returned ref is attached to: created
 * when it mounts, removed when it unmounts (a ref callback with cleanup), recoloured when
 * `theme` changes, sized with its container (`autoSize`).
 *
 * The TradingView attribution logo is off because it injects a `<style>` element, which the
 * app's CSP (`style-src 'self'`) refuses; the panel credits the library in text instead.
 */
export function useCandleChart(
  theme: string,
): [ref: (el: HTMLDivElement | null) => (() => void) | undefined, api: CandleChart | null] {
  const [api, setApi] = useState<CandleChart | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    if (!el) return undefined;
    const chart = createChart(el, {
      autoSize: true,
      layout: { attributionLogo: false, fontSize: 11, background: { type: ColorType.Solid, color: 'transparent' } },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.24 } },
      timeScale: { rightOffset: 4, borderVisible: false, tickMarkFormatter: sessionTickMark },
    });
    const candles = chart.addSeries(CandlestickSeries, { priceLineVisible: true, lastValueVisible: true });
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    setApi({ chart, candles, volume });
    return () => {
      setApi(null);
      chart.remove();
    };
  }, []);

  useEffect(() => {
    if (!api) return;
    // The app sets data-theme in its own effect, which runs after this child's: read the
    // stylesheet's colours on the next frame, once the new theme applies.
    const frame = requestAnimationFrame(() => {
      refreshPalette();
      const p = palette();
      api.chart.applyOptions({
        layout: { textColor: p.muted },
        grid: { vertLines: { color: withAlpha(p.line, 0.5) }, horzLines: { color: withAlpha(p.line, 0.5) } },
        rightPriceScale: { borderColor: p.line },
        timeScale: { borderColor: p.line },
        crosshair: { vertLine: { labelBackgroundColor: p.accent }, horzLine: { labelBackgroundColor: p.accent } },
      });
      api.candles.applyOptions({
        upColor: p.up,
        downColor: p.down,
        borderUpColor: p.up,
        borderDownColor: p.down,
        wickUpColor: p.up,
        wickDownColor: p.down,
      });
      const bars = api.candles.data();
      api.volume.setData(
        api.volume.data().map((v, i) => {
          const c = bars[i] as { open?: number; close?: number } | undefined;
          const value = (v as { value?: number }).value ?? 0;
          return { time: v.time, value, color: withAlpha((c?.close ?? 0) >= (c?.open ?? 0) ? p.up : p.down, 0.35) };
        }),
      );
    });
    return () => cancelAnimationFrame(frame);
  }, [api, theme]);
  return [ref, api];
}

/**
 * The price axis in the instrument's terms: as many decimals as its tick needs (a CDS ₹0.0025
 * contract reads 83.2525, not 83.25) and steps of one tick.
 */
export function chartPriceFormat(tickSize: number): { type: 'price'; precision: number; minMove: number } {
  return { type: 'price', precision: priceDecimals(tickSize), minMove: tickSize };
}

/** Keeps the candle series' axis formatted for the shown instrument's tick. */
export function usePriceScale(api: CandleChart | null, tickSize: number | undefined): void {
  useEffect(() => {
    if (api && tickSize !== undefined) api.candles.applyOptions({ priceFormat: chartPriceFormat(tickSize) });
  }, [api, tickSize]);
}

/** Volume bar colour: the candle's direction, translucent so the candles stay in front. */
export function volumePoint(bar: Bar): { time: UTCTimestamp; value: number; color: string } {
  const p = palette();
  return { time: time(bar.time), value: bar.volume, color: withAlpha(bar.close >= bar.open ? p.up : p.down, 0.35) };
}

/** A bar in the candlestick series' terms. */
export function candlePoint(bar: Bar): { time: UTCTimestamp; open: number; high: number; low: number; close: number } {
  return { time: time(bar.time), open: bar.open, high: bar.high, low: bar.low, close: bar.close };
}

/** A price line as the chart takes it, in the palette read for the theme. */
function lineOptions(l: PriceLine): CreatePriceLineOptions {
  const p = palette();
  const color = {
    buy: p.buy,
    sell: p.sell,
    trigger: p.warn,
    position: p.accent,
    ghost: p.muted,
    draft: p.warn,
    drawn: p.text,
  } as const;
  return {
    id: l.id,
    price: l.price,
    color: color[l.kind],
    lineWidth: l.kind === 'position' ? 2 : 1,
    lineStyle:
      l.kind === 'drawn'
        ? LineStyle.Solid
        : l.kind === 'trigger' || l.kind === 'ghost'
          ? LineStyle.Dotted
          : l.kind === 'position'
            ? LineStyle.Solid
            : l.kind === 'draft'
              ? LineStyle.LargeDashed
              : LineStyle.Dashed,
    axisLabelVisible: true,
    title: l.title,
  };
}

const sameOptions = (a: CreatePriceLineOptions, b: CreatePriceLineOptions): boolean =>
  a.price === b.price &&
  a.color === b.color &&
  a.lineWidth === b.lineWidth &&
  a.lineStyle === b.lineStyle &&
  a.title === b.title;

/**
 * The price lines one chart holds: those of the last lines given that lie near the prices on
 * screen (`price-line-window.ts`, docs/ladder.md §Speed). A line off screen is not held, and is
 * added when a redraw finds the range has moved towards it: a primitive on the series hears each
 * of the chart's redraws. Lines are picked again at most once a frame, touching only those that
 * changed.
 */
class HeldLines {
  private lines: readonly PriceLine[] = [];
  private picked: PriceWindow | null = null;
  private frame = 0;
  private readonly held = new Map<string, { readonly handle: IPriceLine; options: CreatePriceLineOptions }>();

  constructor(private readonly api: CandleChart) {
    api.candles.attachPrimitive({
      updateAllViews: () => {
        if (this.frame === 0 && outgrown(this.picked, this.range())) this.schedule();
      },
    });
  }

  /** The lines to draw from the next frame on (after the theme's colours apply: the app sets them in its own effect). */
  show(lines: readonly PriceLine[]): void {
    this.lines = lines;
    this.schedule();
  }

  cancel(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private range(): PriceWindow | null {
    return this.api.candles.priceScale().getVisibleRange();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.pick());
  }

  private pick(): void {
    this.frame = 0;
    this.picked = lineWindow(this.range());
    const wanted = new Map<string, CreatePriceLineOptions>();
    for (const l of inWindow(this.lines, this.picked)) wanted.set(l.id, lineOptions(l));
    for (const [id, h] of this.held) {
      if (wanted.has(id)) continue;
      this.api.candles.removePriceLine(h.handle);
      this.held.delete(id);
    }
    for (const [id, options] of wanted) {
      const h = this.held.get(id);
      if (!h) this.held.set(id, { handle: this.api.candles.createPriceLine(options), options });
      else if (!sameOptions(h.options, options)) {
        h.handle.applyOptions(options);
        h.options = options;
      }
    }
  }
}

/** Keeps the candle series' price lines those of `lines` near the prices on screen (`HeldLines`). */
export function usePriceLines(api: CandleChart | null, lines: readonly PriceLine[], theme: string): void {
  // One per chart; the chart goes with its element, and its lines with it.
  const held = useRef<{ readonly api: CandleChart; readonly lines: HeldLines } | null>(null);
  useEffect(() => {
    if (!api) return;
    if (held.current?.api !== api) held.current = { api, lines: new HeldLines(api) };
    const chart = held.current.lines;
    chart.show(lines);
    return () => chart.cancel();
  }, [api, lines, theme]);
}

/** Calls `onPrice` with the price under a click on the chart (not on the axes). */
export function useChartClick(api: CandleChart | null, onPrice: (price: number) => void): void {
  const latest = useRef(onPrice);
  useEffect(() => {
    latest.current = onPrice;
  });
  useEffect(() => {
    if (!api) return;
    const handler = (param: MouseEventParams): void => {
      if (!param.point) return;
      const price = api.candles.coordinateToPrice(param.point.y);
      if (price !== null) latest.current(price);
    };
    // A second click within the double-click window arrives as a double click, not a click:
    // each is still a price the trader pointed at.
    api.chart.subscribeClick(handler);
    api.chart.subscribeDblClick(handler);
    return () => {
      api.chart.unsubscribeClick(handler);
      api.chart.unsubscribeDblClick(handler);
    };
  }, [api]);
}

/** A line being dragged and the price under the pointer. */
export interface LineDrag {
  readonly line: PriceLine;
  readonly price: number;
}

/**
 * Drags price lines with the mouse (docs/brackets.md §On the chart): a press within a few pixels
 * of a draggable line (`lineAt`) takes the press from the chart — it neither pans nor reports a
 * click — and follows the pointer until release, when `onDrop` gets the line and the price there.
 * Hovering a draggable line shows a resize cursor and names it in the canvas's `data-grab`.
 */
export function useLineDrag(
  api: CandleChart | null,
  lines: readonly PriceLine[],
  onDrop: (line: PriceLine, price: number) => void,
): LineDrag | null {
  const [drag, setDrag] = useState<LineDrag | null>(null);
  const latest = useRef({ lines, onDrop });
  useEffect(() => {
    latest.current = { lines, onDrop };
  });
  useEffect(() => {
    if (!api) return;
    const el = api.chart.chartElement();
    const yOf = (e: MouseEvent): number => e.clientY - el.getBoundingClientRect().top;
    const toY = (price: number): number | null => api.candles.priceToCoordinate(price);
    let held: PriceLine | null = null;
    const onMove = (e: MouseEvent): void => {
      const price = api.candles.coordinateToPrice(yOf(e));
      if (held && price !== null) setDrag({ line: held, price });
    };
    const stop = (): void => {
      window.removeEventListener('mousemove', onMove, true);
      window.removeEventListener('mouseup', onUp, true);
    };
    const onUp = (e: MouseEvent): void => {
      stop();
      const line = held;
      held = null;
      setDrag(null);
      const price = api.candles.coordinateToPrice(yOf(e));
      if (line && price !== null) latest.current.onDrop(line, price);
    };
    const onDown = (e: MouseEvent): void => {
      if (e.button !== 0) return;
      const line = lineAt(latest.current.lines, yOf(e), toY);
      if (!line) return;
      // The chart never sees this press: no pan, no click that would price the ticket.
      e.preventDefault();
      e.stopPropagation();
      held = line;
      setDrag({ line, price: line.price });
      window.addEventListener('mousemove', onMove, true);
      window.addEventListener('mouseup', onUp, true);
    };
    const onHover = (e: MouseEvent): void => {
      if (held) return;
      const line = lineAt(latest.current.lines, yOf(e), toY);
      el.dataset.grab = line?.id ?? '';
      el.style.cursor = line ? 'ns-resize' : '';
    };
    el.addEventListener('mousedown', onDown, true);
    el.addEventListener('mousemove', onHover);
    return () => {
      stop();
      el.removeEventListener('mousedown', onDown, true);
      el.removeEventListener('mousemove', onHover);
    };
  }, [api]);
  return drag;
}
