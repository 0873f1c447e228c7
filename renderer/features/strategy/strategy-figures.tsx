import type { Bound, StrategyAnalysis } from '@shared/strategy/strategy-model';
import { formatPnl, formatRupees, signClass } from '../../lib/format';
import { BasketMarginSummary, type BasketMarginView } from '../basket/basket-margin';
import { NO_WHAT_IF, type WhatIf } from './strategy-store';

/** A bound as a trader reads it: a signed figure, or "Unlimited". */
function bound(b: Bound): string {
  return b.kind === 'unbounded' ? 'Unlimited' : formatPnl(b.value);
}

/**
 * The strategy's figures beside its chart (docs/strategy.md §Payoff figures): maximum profit and
 * loss, breakevens, probability of profit, the premium in or out, the P&L now and at the what-if,
 * the net Greeks and the basket's margin with the hedge. Every signed figure carries its sign in
 * the text; colour only repeats it.
 */
export function StrategyFigures(props: {
  readonly analysis: StrategyAnalysis | null;
  readonly pnlNow: number | null;
  readonly margin: BasketMarginView;
  readonly whatIfActive: boolean;
}) {
  const a = props.analysis;
  const s = a?.summary;
  const pop = s?.probabilityOfProfit;
  const rows: Array<[string, string, string, string]> = a
    ? [
        [
          'Max profit',
          bound(s!.maxProfit),
          s!.maxProfit.kind === 'finite' ? signClass(s!.maxProfit.value) : 'up',
          'strategy-max-profit',
        ],
        [
          'Max loss',
          bound(s!.maxLoss),
          s!.maxLoss.kind === 'finite' ? signClass(s!.maxLoss.value) : 'down',
          'strategy-max-loss',
        ],
        [
          'Breakevens',
          s!.breakevens.length ? s!.breakevens.map((b) => Math.round(b).toLocaleString('en-IN')).join(' · ') : 'None',
          '',
          'strategy-breakevens',
        ],
        [
          'Chance of profit',
          pop === null || pop === undefined ? '–' : `${(pop * 100).toFixed(1)}%`,
          '',
          'strategy-pop',
        ],
        [
          'Net premium',
          `${a.premium >= 0 ? 'Credit' : 'Debit'} ${formatRupees(Math.abs(a.premium))}`,
          '',
          'strategy-premium',
        ],
        [
          'P&L now',
          props.pnlNow === null ? '–' : formatPnl(props.pnlNow),
          props.pnlNow === null ? '' : signClass(props.pnlNow),
          'strategy-pnl-now',
        ],
        ...(props.whatIfActive
          ? [
              ['P&L at the what-if', formatPnl(a.pnlAtTarget), signClass(a.pnlAtTarget), 'strategy-pnl-whatif'] as [
                string,
                string,
                string,
                string,
              ],
            ]
          : []),
      ]
    : [];
  return (
    <section className="strategy__figures" aria-label="Strategy figures">
      {a ? (
        <>
          <dl className="strategy__dl">
            {rows.map(([label, value, cls, testId]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className={`num ${cls}`} data-testid={testId}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <h3 className="strategy__subhead">Greeks{props.whatIfActive ? ' at the what-if' : ''}</h3>
          <dl className="strategy__dl strategy__dl--greeks">
            <div>
              <dt title="Rupees per point of the underlying">Δ Delta</dt>
              <dd className="num" data-testid="strategy-delta">
                {signed(a.greeks.delta, 2)}
              </dd>
            </div>
            <div>
              <dt title="Delta's change per point of the underlying">Γ Gamma</dt>
              <dd className="num">{signed(a.greeks.gamma, 4)}</dd>
            </div>
            <div>
              <dt title="Rupees a calendar day">Θ Theta / day</dt>
              <dd className={`num ${signClass(a.greeks.theta)}`}>{formatPnl(a.greeks.theta)}</dd>
            </div>
            <div>
              <dt title="Rupees per point of IV">Vega / IV pt</dt>
              <dd className={`num ${signClass(a.greeks.vega)}`}>{formatPnl(a.greeks.vega)}</dd>
            </div>
          </dl>
        </>
      ) : (
        <p className="muted">Add legs to see the payoff and the figures.</p>
      )}
      <h3 className="strategy__subhead">Margin</h3>
      <p className="strategy__margin">
        <BasketMarginSummary view={props.margin} />
      </p>
    </section>
  );
}

/** A signed number with its sign written (−0.47, +12.30). */
function signed(v: number, digits: number): string {
  const text = Math.abs(v).toFixed(digits);
  if (Number(text) === 0) return text;
  return v > 0 ? `+${text}` : `−${text}`;
}

/**
 * What-if sliders (docs/strategy.md §What-if): the spot moved by a percentage, every IV by some
 * points, and days gone by (up to the first expiry). Each labelled with its value, each back to
 * zero with Reset.
 */
export function WhatIfControls(props: {
  readonly whatIf: WhatIf;
  readonly maxDays: number;
  readonly spot: number | null;
  readonly onChange: (change: Partial<WhatIf>) => void;
}) {
  const { whatIf } = props;
  const moved = props.spot === null ? null : props.spot * (1 + whatIf.spotPct / 100);
  const sign = (v: number): string => (v > 0 ? '+' : v < 0 ? '−' : '±');
  return (
    <fieldset className="strategy__whatif">
      <legend>What if</legend>
      <WhatIfSlider
        caption={`Spot ${sign(whatIf.spotPct)}${Math.abs(whatIf.spotPct).toFixed(2)}%${moved === null ? '' : ` → ${Math.round(moved).toLocaleString('en-IN')}`}`}
        label="Spot change, percent"
        valueText={`${whatIf.spotPct}%`}
        min={-10}
        max={10}
        step={0.25}
        value={whatIf.spotPct}
        onChange={(spotPct) => props.onChange({ spotPct })}
      />
      <WhatIfSlider
        caption={`IV ${sign(whatIf.ivPoints)}${Math.abs(whatIf.ivPoints).toFixed(1)} pts`}
        label="IV change, points"
        valueText={`${whatIf.ivPoints} points`}
        min={-10}
        max={10}
        step={0.5}
        value={whatIf.ivPoints}
        onChange={(ivPoints) => props.onChange({ ivPoints })}
      />
      <WhatIfSlider
        caption={`${whatIf.days === 0 ? 'Today' : `${whatIf.days} day${whatIf.days === 1 ? '' : 's'} on`} (of ${props.maxDays} to expiry)`}
        label="Days from now"
        valueText={`${whatIf.days} days`}
        min={0}
        max={Math.max(0, props.maxDays)}
        step={1}
        value={Math.min(whatIf.days, props.maxDays)}
        onChange={(days) => props.onChange({ days })}
      />
      <button
        type="button"
        className="mini"
        disabled={whatIf.spotPct === 0 && whatIf.ivPoints === 0 && whatIf.days === 0}
        onClick={() => props.onChange(NO_WHAT_IF)}
      >
        Reset
      </button>
    </fieldset>
  );
}

/** One what-if slider: its value said in words above it, and to a screen reader. */
function WhatIfSlider(props: {
  readonly caption: string;
  readonly label: string;
  readonly valueText: string;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly value: number;
  readonly onChange: (value: number) => void;
}) {
  return (
    <label>
      <span>{props.caption}</span>
      <input
        type="range"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        aria-label={props.label}
        aria-valuetext={props.valueText}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </label>
  );
}
