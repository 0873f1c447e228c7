import { equityCurve } from '@shared/journal/stats';
import type { JournalTrade } from '@shared/domain/journal';
import { compactRupees, niceTicks } from '../strategy/payoff-chart-model';

const W = 520;
const H = 170;
const PAD = { left: 52, right: 10, top: 12, bottom: 20 };

/**
 * The equity curve (docs/journal.md §Statistics): the running net P&L after each closed trade, in
 * exit order, from zero — above the zero line green, below it red, each axis figure with its sign.
 */
export function EquityCurve({ trades }: { readonly trades: readonly JournalTrade[] }) {
  const points = equityCurve(trades);
  if (points.length === 0) return <p className="muted small">No closed trades yet.</p>;
  const ys = [0, ...points.map((p) => p.equity)];
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (i: number): number => PAD.left + (i / Math.max(1, points.length)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom);
  const path = [`M${x(0)},${y(0)}`, ...points.map((p, i) => `L${x(i + 1).toFixed(1)},${y(p.equity).toFixed(1)}`)].join(
    '',
  );
  const area = `${path}L${x(points.length).toFixed(1)},${y(0)}L${x(0)},${y(0)}Z`;
  const last = points[points.length - 1]!.equity;
  return (
    <svg
      className="equity"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Equity curve over ${points.length} trades: ends at ${compactRupees(last)} rupees, lowest ${compactRupees(lo)}, highest ${compactRupees(hi)}`}
    >
      <defs>
        <clipPath id="equity-above">
          <rect x={0} y={0} width={W} height={y(0)} />
        </clipPath>
        <clipPath id="equity-below">
          <rect x={0} y={y(0)} width={W} height={H - y(0)} />
        </clipPath>
      </defs>
      {niceTicks(lo, hi, 4).map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="equity__grid" />
          <text x={PAD.left - 5} y={y(v)} dy="0.32em" textAnchor="end" className="equity__axis">
            {compactRupees(v)}
          </text>
        </g>
      ))}
      <path d={area} className="equity__area equity__area--up" clipPath="url(#equity-above)" />
      <path d={area} className="equity__area equity__area--down" clipPath="url(#equity-below)" />
      <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="equity__zero" />
      <path d={path} className="equity__line" />
      <text x={W - PAD.right} y={H - 4} textAnchor="end" className="equity__axis">
        {points.length} trades
      </text>
    </svg>
  );
}
