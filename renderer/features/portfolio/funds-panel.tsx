import { useQuery } from '@tanstack/react-query';
import { formatPnl, formatRupees, signClass } from '../../lib/format';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { portfolioQueries } from './queries';
import { usePositionTotals } from './use-position-totals';

/**
 * The broker's cash and margin figures, as it reports them; the unrealised P&L is the open
 * positions marked at the latest ticks, the very figure of Positions' Total row (the broker's own
 * is as of its last read, so the two would disagree between reads).
 */
export function FundsPanel() {
  const open = usePositionTotals('funds');
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
          <div title="Open positions at the latest price: the total of Positions' Unrealised column">
            <dt>Unrealised P&amp;L</dt>
            {open ? (
              <dd className={signClass(open.unrealised)} data-testid="funds-unrealised">
                {formatPnl(open.unrealised)}
              </dd>
            ) : (
              <dd className="muted" data-testid="funds-unrealised">
                –
              </dd>
            )}
          </div>
        </dl>
      )}
    </Panel>
  );
}
