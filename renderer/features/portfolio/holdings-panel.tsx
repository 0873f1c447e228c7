import { useQuery } from '@tanstack/react-query';
import { formatPnl, formatPrice, formatQty, formatRupees, signClass } from '../../lib/format';
import { Panel } from '../layout/panel';
import { EmptyRow, PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotes } from '../market/use-quotes';
import { useInstruments } from '../instruments/queries';
import { markHolding, sumRupees } from './position-pnl';
import { portfolioQueries } from './queries';

/** Delivery holdings with value and P&L at the latest price. */
export function HoldingsPanel() {
  const refetchInterval = usePollInterval('holdings');
  const result = useQuery({ ...portfolioQueries.holdings(), refetchInterval });
  const quotes = useQuotes();
  const { byToken } = useInstruments();
  const holdings = result.data ?? [];
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
          <table aria-label="Holdings" className="grid">
            <thead>
              <tr>
                <th>Symbol</th>
                <th className="num">Qty</th>
                <th className="num">Avg</th>
                <th className="num">LTP</th>
                <th className="num">Value</th>
                <th className="num">P&amp;L</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? <EmptyRow colSpan={6}>No holdings</EmptyRow> : null}
              {rows.map(({ h, m }) => (
                <tr key={h.instrumentToken}>
                  <td className="sym">{h.tradingsymbol}</td>
                  <td className="num">{formatQty(h.quantity)}</td>
                  <td className="num">{formatPrice(h.averagePrice, byToken.get(h.instrumentToken)?.tickSize)}</td>
                  <td className="num">{formatPrice(m.ltp, byToken.get(h.instrumentToken)?.tickSize)}</td>
                  <td className="num">{formatRupees(m.value)}</td>
                  <td className={`num ${signClass(m.pnl)}`}>{formatPnl(m.pnl)}</td>
                </tr>
              ))}
            </tbody>
            {rows.length > 0 ? (
              <tfoot>
                <tr>
                  <th scope="row" colSpan={5}>
                    Total
                  </th>
                  <td className={`num ${signClass(total)}`}>{formatPnl(total)}</td>
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      )}
    </Panel>
  );
}
