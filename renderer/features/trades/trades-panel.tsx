import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Charges } from '@shared/trading/charges';
import { formatIstTime, formatPnl, formatPrice, formatQty, formatRupees, signClass } from '../../lib/format';
import { ExportButton } from '../export/export-button';
import { useInstruments } from '../instruments/queries';
import { GridTable, num } from '../layout/grid-table';
import { Panel } from '../layout/panel';
import { useMarketStatus } from '../market-status/queries';
import { PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { portfolioQueries } from '../portfolio/queries';
import { tradeQueries } from './queries';
import { fillsOfDay, newestFirst, summariseDay, tradingDay } from './trade-book';
import './trades.css';

/** "Brokerage ₹40.00 · STT ₹37.75 · …": the estimate's breakdown, for its tooltip. */
function breakdown(c: Charges): string {
  return [
    `Brokerage ${formatRupees(c.brokerage)}`,
    `STT/CTT ${formatRupees(c.stt)}`,
    `Exchange ${formatRupees(c.exchange)}`,
    `SEBI ${formatRupees(c.sebi)}`,
    `GST ${formatRupees(c.gst)}`,
    `Stamp ${formatRupees(c.stamp)}`,
  ].join(' · ');
}

/** A P&L of the day signed and coloured, or "–" while the figure is not known. */
function PnlFigure(props: { readonly value: number; readonly known: boolean; readonly testId: string }) {
  return (
    <dd className={`num ${props.known ? signClass(props.value) : ''}`} data-testid={props.testId}>
      {props.known ? formatPnl(props.value) : '–'}
    </dd>
  );
}

/**
 * The trade book: every fill of the market's day (time, symbol, side, quantity, price, value, order id),
 * newest first, under the day's summary — turnover, realised P&L, estimated charges and the
 * net (docs/desk.md §Trade book, §Charges model).
 */
export function TradesPanel() {
  const refetchInterval = usePollInterval('positions');
  const result = useQuery({ ...tradeQueries.list(), refetchInterval });
  // Read from the cache the Positions panel polls; a second interval would double the reads.
  const positions = useQuery({ ...portfolioQueries.positions() });
  const { byToken } = useInstruments();
  const today = tradingDay(useMarketStatus()?.now);
  const fills = useMemo(() => (result.data ? fillsOfDay(result.data, today) : undefined), [result.data, today]);
  const rows = useMemo(() => newestFirst(fills ?? []), [fills]);
  const day = useMemo(() => summariseDay(fills, positions.data, byToken), [fills, positions.data, byToken]);

  return (
    <Panel
      title="Trades"
      source={{ ...result, queryKey: tradeQueries.list().queryKey }}
      actions={
        <div className="toolbar">
          <span className="muted">{formatQty(rows.length)} fills</span>
          <ExportButton book="trades" />
        </div>
      }
    >
      {day === null ? (
        <PanelPlaceholder what="trades" error={result.error} />
      ) : (
        <>
          <dl className="day-summary" aria-label="Day summary">
            <div>
              <dt>Turnover</dt>
              <dd className="num" data-testid="day-turnover">
                {formatRupees(day.summary.turnover)}
              </dd>
            </div>
            <div>
              <dt>Realised P&amp;L</dt>
              <PnlFigure value={day.summary.realisedPnl} known={day.realisedKnown} testId="day-realised" />
            </div>
            <div title={breakdown(day.summary.charges)}>
              <dt>Charges (est.)</dt>
              <dd className="num" data-testid="day-charges">
                {formatRupees(day.summary.charges.total)}
              </dd>
            </div>
            <div>
              <dt>Net</dt>
              <PnlFigure value={day.summary.netRealised} known={day.realisedKnown} testId="day-net" />
            </div>
          </dl>
          <div className="table-scroll">
            <GridTable
              label="Trades"
              columns={['Time', 'Symbol', 'Side', num('Qty'), num('Price'), num('Value'), 'Order id']}
              rows={rows}
              none="No trades today"
              row={(t) => {
                const i = byToken.get(t.instrumentToken);
                return (
                  <tr key={t.tradeId} data-trade-id={t.tradeId}>
                    <td>{formatIstTime(t.filledAt)}</td>
                    <td className="sym">
                      {t.tradingsymbol} <span className="muted small">{t.exchange}</span>
                    </td>
                    <td className={t.transactionType === 'BUY' ? 'buy' : 'sell'}>{t.transactionType}</td>
                    <td className="num">{formatQty(t.quantity)}</td>
                    <td className="num">{formatPrice(t.price, i?.tickSize)}</td>
                    <td className="num">{formatRupees(t.quantity * t.price * (i?.multiplier ?? 1))}</td>
                    <td className="mono">{t.orderId}</td>
                  </tr>
                );
              }}
            />
          </div>
        </>
      )}
    </Panel>
  );
}
