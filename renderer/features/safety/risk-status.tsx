import { useQuery } from '@tanstack/react-query';
import { formatPnl } from '../../lib/format';
import { usePollInterval } from '../layout/use-poll-interval';
import { safetyQueries } from './queries';
import { useSafetyActions } from './safety-store';

/**
 * The header's risk chip: where the day stands against the daily loss limit, and the way into
 * the risk limits dialog. Once the limit is reached it turns red and says what that means
 * (docs/contract.md §Risk guard); the banner under the header repeats it in full.
 */
export function RiskStatusChip() {
  const refetchInterval = usePollInterval('positions');
  const state = useQuery({ ...safetyQueries.risk(), refetchInterval });
  const { riskDialogOpened } = useSafetyActions();
  const s = state.data?.status;
  const text = s?.reached
    ? s.blocked
      ? 'Loss limit reached: exits only'
      : 'Loss limit reached'
    : s?.dailyLossLimit && s.dayPnl !== null
      ? `Day ${formatPnl(s.dayPnl)} / −₹${s.dailyLossLimit.value.toLocaleString('en-IN')}`
      : 'Risk limits';
  // On a narrow header (≤1600 px) the chip says it in a word; the title and the banner say it in full.
  const short = s?.reached ? (s.blocked ? 'Exits only' : 'Loss limit') : 'Risk';
  return (
    <button
      type="button"
      className={`risk-chip${s?.reached ? ' risk-chip--reached' : ''}`}
      data-testid="risk-chip"
      title={s?.detail ?? (text === 'Risk limits' ? 'Set your risk limits' : text)}
      onClick={riskDialogOpened}
    >
      <span className="wide-only">{text}</span>
      <span className="narrow-only" aria-hidden="true">
        {short}
      </span>
    </button>
  );
}

/** The banner under the header while the loss limit is reached: the guard's own words. */
export function RiskBanner() {
  const state = useQuery({ ...safetyQueries.risk(), enabled: false });
  const detail = state.data?.status.reached ? state.data.status.detail : null;
  if (!detail) return null;
  return (
    <div className="banners">
      <div role="alert" className="banner banner--bad" data-testid="risk-banner">
        {detail}
      </div>
    </div>
  );
}
