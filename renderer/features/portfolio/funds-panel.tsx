import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../lib/describe-error';
import { formatPnl, formatRupees } from '../../lib/format';
import { Panel } from '../layout/panel';
import { usePollInterval } from '../layout/use-poll-interval';
import { portfolioQueries } from './queries';

/** The broker's cash and margin figures, as it reports them. */
export function FundsPanel() {
  const refetchInterval = usePollInterval('funds');
  const result = useQuery({ ...portfolioQueries.funds(), refetchInterval });
  const f = result.data;
  return (
    <Panel title="Funds" source={{ ...result, queryKey: portfolioQueries.funds().queryKey }}>
      {f === undefined ? (
        <p className="empty">
          {result.error ? `Could not load funds: ${describeError(result.error)}` : 'Loading funds…'}
        </p>
      ) : (
        <dl className="figures" aria-label="Funds figures">
          <div>
            <dt>Available margin</dt>
            <dd className="big">{formatRupees(f.availableMargin)}</dd>
          </div>
          <div>
            <dt>Used margin</dt>
            <dd>{formatRupees(f.usedMargin)}</dd>
          </div>
          <div>
            <dt>Available cash</dt>
            <dd>{formatRupees(f.availableCash)}</dd>
          </div>
          <div>
            <dt>Opening balance</dt>
            <dd>{formatRupees(f.openingBalance)}</dd>
          </div>
          <div>
            <dt>Realised P&amp;L</dt>
            <dd className={f.realisedPnl >= 0 ? 'up' : 'down'}>{formatPnl(f.realisedPnl)}</dd>
          </div>
          <div>
            <dt>Unrealised P&amp;L</dt>
            <dd className={f.unrealisedPnl >= 0 ? 'up' : 'down'}>{formatPnl(f.unrealisedPnl)}</dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}
