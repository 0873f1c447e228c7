import { expiryInstant } from '@shared/trading/market-hours';
import { formatIstDateTime } from '../../lib/format';
import { formatExpiry } from '../options/chain-model';
import type { BuilderLeg } from './builder-model';
import { PayoffChart } from './payoff-chart';
import { WhatIfControls } from './strategy-figures';
import type { WhatIf } from './strategy-store';
import type { StrategyView } from './use-strategy-view';

const DAY_MS = 86_400_000;

/** What a screen reader hears for the payoff chart: its extremes and breakevens. */
function payoffDescription(underlying: string, view: StrategyView): string {
  const summary = view.analysis?.summary;
  if (!summary) return 'No payoff yet';
  const maxProfit = summary.maxProfit.kind === 'finite' ? Math.round(summary.maxProfit.value) : 'unlimited';
  const maxLoss = summary.maxLoss.kind === 'finite' ? Math.round(-summary.maxLoss.value) : 'unlimited';
  const breakevens = summary.breakevens.map((b) => Math.round(b)).join(' and ') || 'none';
  return `Payoff of the ${underlying} strategy at expiry: maximum profit ${maxProfit} rupees, maximum loss ${maxLoss} rupees, breakevens ${breakevens}`;
}

/**
 * The payoff and the what-if under it (docs/strategy.md §The payoff chart): at the nearest leg's
 * expiry and on the what-if's date, with the days slider running to that expiry.
 */
export function StrategyPayoff(props: {
  readonly underlying: string;
  readonly legs: readonly BuilderLeg[];
  readonly view: StrategyView;
  readonly whatIf: WhatIf;
  readonly onWhatIf: (change: Partial<WhatIf>) => void;
}) {
  const { legs, view, whatIf } = props;
  const expiry = legs.length ? legs.reduce((m, l) => (l.expiry < m ? l.expiry : m), legs[0]!.expiry) : null;
  const expiryAt = legs.length ? Math.min(...legs.map((l) => expiryInstant(l.exchange, l.expiry))) : null;
  const maxDays = expiryAt === null ? 0 : Math.max(0, Math.floor((expiryAt - view.now) / DAY_MS));
  const targetLabel =
    whatIf.days === 0
      ? `Today (${formatIstDateTime(view.now)})`
      : `In ${whatIf.days} day${whatIf.days === 1 ? '' : 's'} (${formatIstDateTime(view.targetAt)})`;
  return (
    <div className="strategy__chart">
      {view.analysis && view.spot !== null ? (
        <PayoffChart
          curves={view.analysis.curves}
          spot={view.spot}
          whatIfSpot={whatIf.spotPct !== 0 ? view.whatIfSpot : null}
          breakevens={view.analysis.summary.breakevens}
          expiryLabel={expiry ? formatExpiry(expiry, expiry) : ''}
          targetLabel={targetLabel}
          description={payoffDescription(props.underlying, view)}
        />
      ) : (
        <div className="strategy__empty">
          {legs.length === 0 ? 'The payoff appears here once the strategy has legs' : 'Waiting for prices…'}
        </div>
      )}
      <WhatIfControls whatIf={whatIf} maxDays={maxDays} spot={view.spot} onChange={props.onWhatIf} />
    </div>
  );
}
