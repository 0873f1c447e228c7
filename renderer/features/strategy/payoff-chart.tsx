import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { PayoffCurves } from '@shared/strategy/strategy-model';
import { formatPrice } from '../../lib/format';
import {
  areaPath,
  bandPath,
  compactRupees,
  linePath,
  niceTicks,
  scalesFor,
  valueAt,
  type Box,
  type Scales,
} from './payoff-chart-model';

/** The chart's size until it has measured its box (and in tests, where nothing is laid out). */
const DEFAULT_SIZE = { width: 760, height: 320 };

/** The drawing's geometry: the plot's edges, its scales, where zero is, and the SVG ids' prefix. */
interface Frame {
  readonly box: Box;
  readonly s: Scales;
  readonly zero: number;
  readonly plotRight: number;
  readonly plotBottom: number;
  readonly inPlot: (x: number) => boolean;
  readonly id: string;
}

/** The size of the element `ref` holds, as laid out (DEFAULT_SIZE until it has been measured). */
function useMeasuredSize(ref: RefObject<HTMLDivElement | null>): typeof DEFAULT_SIZE {
  const [size, setSize] = useState(DEFAULT_SIZE);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      const h = Math.round(entry?.contentRect.height ?? 0);
      if (w > 100 && h > 100) setSize((s) => (s.width === w && s.height === h ? s : { width: w, height: h }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** Clips above and below zero, and the profit and loss tints. */
function PayoffDefs({ f }: { readonly f: Frame }) {
  const { box, zero, plotRight, plotBottom, id } = f;
  return (
    <defs>
      <clipPath id={`${id}-above`}>
        <rect x={box.left} y={box.top} width={plotRight - box.left} height={Math.max(0, zero - box.top)} />
      </clipPath>
      <clipPath id={`${id}-below`}>
        <rect x={box.left} y={zero} width={plotRight - box.left} height={Math.max(0, plotBottom - zero)} />
      </clipPath>
      <linearGradient id={`${id}-profit`} x1="0" y1="0" x2="0" y2="1">
        <stop offset="0%" className="payoff__profit-stop" stopOpacity="0.42" />
        <stop offset="100%" className="payoff__profit-stop" stopOpacity="0.06" />
      </linearGradient>
      <linearGradient id={`${id}-loss`} x1="0" y1="0" x2="0" y2="1">
        <stop offset="0%" className="payoff__loss-stop" stopOpacity="0.06" />
        <stop offset="100%" className="payoff__loss-stop" stopOpacity="0.42" />
      </linearGradient>
    </defs>
  );
}

/** The grid and both axes' labels: rupees up the side, the underlying's price along the bottom. */
function PayoffGrid({ f, width, height }: { readonly f: Frame; readonly width: number; readonly height: number }) {
  const { box, s, plotRight, plotBottom } = f;
  const xTicks = niceTicks(s.xMin, s.xMax, Math.max(3, Math.floor((width - 80) / 90)));
  const yTicks = niceTicks(s.yMin, s.yMax, Math.max(3, Math.floor((height - 66) / 46)));
  return (
    <>
      {yTicks.map((v) => (
        <g key={`y${v}`} className="payoff__grid">
          <line x1={box.left} x2={plotRight} y1={s.y(v)} y2={s.y(v)} />
          <text x={box.left - 6} y={s.y(v)} dy="0.32em" textAnchor="end" className="payoff__axis">
            {compactRupees(v)}
          </text>
        </g>
      ))}
      {xTicks.map((v) => (
        <g key={`x${v}`} className="payoff__grid">
          <line x1={s.x(v)} x2={s.x(v)} y1={box.top} y2={plotBottom} />
          <text x={s.x(v)} y={plotBottom + 16} textAnchor="middle" className="payoff__axis">
            {v.toLocaleString('en-IN')}
          </text>
        </g>
      ))}
    </>
  );
}

/** The curves: the tinted areas, the time-value band, the zero line with its regions, the target date's and expiry's P&L. */
function PayoffCurveLayers({ f, curves }: { readonly f: Frame; readonly curves: PayoffCurves }) {
  const { box, s, zero, plotRight, plotBottom, id } = f;
  return (
    <>
      <path d={areaPath(curves.xs, curves.atExpiry, s)} fill={`url(#${id}-profit)`} clipPath={`url(#${id}-above)`} />
      <path d={areaPath(curves.xs, curves.atExpiry, s)} fill={`url(#${id}-loss)`} clipPath={`url(#${id}-below)`} />
      <path d={bandPath(curves, s)} className="payoff__band" />

      <line x1={box.left} x2={plotRight} y1={zero} y2={zero} className="payoff__zero" />
      <text x={plotRight - 4} y={zero - 5} textAnchor="end" className="payoff__tag">
        0
      </text>
      {zero - box.top > 30 ? (
        <text x={box.left + 8} y={box.top + 14} className="payoff__region payoff__region--profit">
          ▲ Profit
        </text>
      ) : null}
      {plotBottom - zero > 30 ? (
        <text x={box.left + 8} y={plotBottom - 8} className="payoff__region payoff__region--loss">
          ▼ Loss
        </text>
      ) : null}

      <path d={linePath(curves.xs, curves.atTarget, s)} className="payoff__target" />
      <path
        d={linePath(curves.xs, curves.atExpiry, s)}
        className="payoff__expiry payoff__expiry--up"
        clipPath={`url(#${id}-above)`}
      />
      <path
        d={linePath(curves.xs, curves.atExpiry, s)}
        className="payoff__expiry payoff__expiry--down"
        clipPath={`url(#${id}-below)`}
      />
    </>
  );
}

/** The spot, the what-if spot (when it is elsewhere), and each breakeven on the zero line. */
function PayoffMarkers(props: {
  readonly f: Frame;
  readonly spot: number;
  readonly whatIfSpot: number | null;
  readonly breakevens: readonly number[];
}) {
  const { box, s, zero, plotRight, plotBottom, inPlot } = props.f;
  const spotX = s.x(props.spot);
  const whatIfX = props.whatIfSpot === null ? null : s.x(props.whatIfSpot);
  const showWhatIf = whatIfX !== null && Math.abs(whatIfX - spotX) > 1 && inPlot(whatIfX);
  return (
    <>
      {inPlot(spotX) ? (
        <g className="payoff__spot">
          <line x1={spotX} x2={spotX} y1={box.top - 4} y2={plotBottom} />
          <text x={spotX} y={box.top - 9} textAnchor="middle">
            Spot {formatPrice(Math.round(props.spot * 100) / 100)}
          </text>
        </g>
      ) : null}
      {showWhatIf && whatIfX !== null && props.whatIfSpot !== null ? (
        <g className="payoff__whatif">
          <line x1={whatIfX} x2={whatIfX} y1={box.top + 8} y2={plotBottom} />
          <text x={whatIfX} y={box.top + 4} textAnchor="middle">
            What-if {formatPrice(Math.round(props.whatIfSpot * 100) / 100)}
          </text>
        </g>
      ) : null}
      {props.breakevens.map((b, n) =>
        inPlot(s.x(b)) ? (
          <g key={b} className="payoff__be" data-testid="payoff-breakeven">
            <circle cx={s.x(b)} cy={zero} r={4.5} />
            <text
              x={s.x(b)}
              y={n % 2 === 0 ? zero + 18 : zero - 10}
              textAnchor={s.x(b) < box.left + 50 ? 'start' : s.x(b) > plotRight - 50 ? 'end' : 'middle'}
            >
              BE {Math.round(b).toLocaleString('en-IN')}
            </text>
          </g>
        ) : null,
      )}
    </>
  );
}

/** The legend, and what both curves read at the hovered price. */
function PayoffLegend(props: {
  readonly expiryLabel: string;
  readonly targetLabel: string;
  readonly reading: { readonly price: number; readonly atExpiry: number; readonly atTarget: number } | null;
}) {
  const r = props.reading;
  return (
    <div className="payoff__legend" aria-hidden="true">
      <span className="payoff__key payoff__key--expiry">At expiry ({props.expiryLabel})</span>
      <span className="payoff__key payoff__key--target">{props.targetLabel}</span>
      {r ? (
        <span className="payoff__readout">
          At {Math.round(r.price).toLocaleString('en-IN')}: expiry {compactRupees(r.atExpiry)} ·{' '}
          {props.targetLabel.split(' (')[0]} {compactRupees(r.atTarget)}
        </span>
      ) : (
        <span className="payoff__readout muted">Hover the chart to read a price</span>
      )}
    </div>
  );
}

/**
 * The payoff of a strategy as a picture (docs/strategy.md §The payoff chart): P&L against the
 * underlying's price at expiry (solid: green above zero, red below, over a tinted area marked
 * "Profit" and "Loss", so colour is never the only sign) and on the chosen date (dashed), the
 * band between the two — the time value the strategy still holds — the zero line, the spot and
 * the what-if spot marked, and each breakeven labelled on the zero line. Hovering reads both
 * curves at a price. Drawn as SVG: lightweight-charts' price-axis chart has no fill between two
 * curves or vertical markers without custom canvas plugins.
 */
export function PayoffChart(props: {
  readonly curves: PayoffCurves;
  readonly spot: number;
  readonly whatIfSpot: number | null;
  readonly breakevens: readonly number[];
  readonly expiryLabel: string;
  readonly targetLabel: string;
  readonly description: string;
}) {
  const { curves } = props;
  const ref = useRef<HTMLDivElement>(null);
  const size = useMeasuredSize(ref);
  const [hover, setHover] = useState<number | null>(null);
  const id = useId().replace(/:/g, '');

  const box: Box = { ...size, left: 64, right: 16, top: 26, bottom: 40 };
  const s = scalesFor(curves, box);
  const plotRight = size.width - box.right;
  const inPlot = (x: number): boolean => x >= box.left && x <= plotRight;
  const f: Frame = { box, s, zero: s.y(0), plotRight, plotBottom: size.height - box.bottom, inPlot, id };
  const hoverPrice = hover === null ? null : s.price(hover);
  const atExpiry = hoverPrice === null ? null : valueAt(curves.xs, curves.atExpiry, hoverPrice);
  const atTarget = hoverPrice === null ? null : valueAt(curves.xs, curves.atTarget, hoverPrice);

  return (
    <div className="payoff">
      <div className="payoff__plot" ref={ref}>
        <svg
          role="img"
          aria-label={props.description}
          width={size.width}
          height={size.height}
          viewBox={`0 0 ${size.width} ${size.height}`}
          onMouseMove={(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            const x = e.clientX - r.left;
            setHover(inPlot(x) ? x : null);
          }}
          onMouseLeave={() => setHover(null)}
        >
          <PayoffDefs f={f} />
          <PayoffGrid f={f} width={size.width} height={size.height} />
          <PayoffCurveLayers f={f} curves={curves} />
          <PayoffMarkers f={f} spot={props.spot} whatIfSpot={props.whatIfSpot} breakevens={props.breakevens} />
          {hover !== null && hoverPrice !== null ? (
            <g className="payoff__hover">
              <line x1={hover} x2={hover} y1={box.top} y2={f.plotBottom} />
              {atExpiry !== null ? <circle cx={hover} cy={s.y(atExpiry)} r={3.5} className="payoff__dot" /> : null}
              {atTarget !== null ? (
                <circle cx={hover} cy={s.y(atTarget)} r={3} className="payoff__dot payoff__dot--target" />
              ) : null}
            </g>
          ) : null}
        </svg>
      </div>
      <PayoffLegend
        expiryLabel={props.expiryLabel}
        targetLabel={props.targetLabel}
        reading={
          hoverPrice !== null && atExpiry !== null && atTarget !== null
            ? { price: hoverPrice, atExpiry, atTarget }
            : null
        }
      />
    </div>
  );
}
