import { useQuery } from '@tanstack/react-query';
import { formatPnl, formatRupees, signClass } from '../../lib/format';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
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
        <PanelPlaceholder what="funds" error={result.error} />
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
            <dd className={signClass(f.realisedPnl)}>{formatPnl(f.realisedPnl)}</dd>
          </div>
          <div>
            <dt>Unrealised P&amp;L</dt>
            <dd className={signClass(f.unrealisedPnl)}>{formatPnl(f.unrealisedPnl)}</dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}
