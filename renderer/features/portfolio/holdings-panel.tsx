import { useQuery } from '@tanstack/react-query';
import { formatPnl, formatPrice, formatQty, formatRupees, signClass } from '../../lib/format';
import { GridTable, num, TotalsRow } from '../layout/grid-table';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotesOf } from '../market/use-quotes';
import { useInstruments } from '../instruments/queries';
import { markHolding, sumRupees } from './position-pnl';
import { portfolioQueries } from './queries';

/** Delivery holdings with value and P&L at the latest price. */
export function HoldingsPanel() {
  const refetchInterval = usePollInterval('holdings');
  const result = useQuery({ ...portfolioQueries.holdings(), refetchInterval });
  const holdings = result.data ?? [];
  const quotes = useQuotesOf(holdings.map((h) => h.instrumentToken));
  const { byToken } = useInstruments();
  useMarketSubscription(
    'holdings',
    holdings.map((h) => h.instrumentToken),
  );
  const rows = holdings.map((h) => ({ h, m: markHolding(h, quotes[h.instrumentToken]?.lastPrice) }));
  const total = sumRupees(rows.map((r) => r.m.pnl));
  return (
    <Panel title="Holdings" source={{ ...result, queryKey: portfolioQueries.holdings().queryKey }}>
      {result.data === undefined ? (
        <PanelPlaceholder what="holdings" error={result.error} />
      ) : (
        <div className="table-scroll">
          <GridTable
            label="Holdings"
            columns={['Symbol', num('Qty'), num('Avg'), num('LTP'), num('Value'), num('P&L')]}
            rows={rows}
            none="No holdings"
            foot={
              <TotalsRow span={5}>
                <td className={`num ${signClass(total)}`}>{formatPnl(total)}</td>
              </TotalsRow>
            }
            row={({ h, m }) => (
              <tr key={h.instrumentToken}>
                <td className="sym">{h.tradingsymbol}</td>
                <td className="num">{formatQty(h.quantity)}</td>
                <td className="num">{formatPrice(h.averagePrice, byToken.get(h.instrumentToken)?.tickSize)}</td>
                <td className="num">{formatPrice(m.ltp, byToken.get(h.instrumentToken)?.tickSize)}</td>
                <td className="num">{formatRupees(m.value)}</td>
                <td className={`num ${signClass(m.pnl)}`}>{formatPnl(m.pnl)}</td>
              </tr>
            )}
          />
        </div>
      )}
    </Panel>
  );
}
