import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Position } from '@shared/domain/portfolio';
import { formatPnl, formatPrice, formatSignedQty, signClass } from '../../lib/format';
import { ExportButton } from '../export/export-button';
import { useTicketActions } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { EmptyRow, PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { LivePrice } from '../market/live-price';
import { useQuotes } from '../market/use-quotes';
import { markPosition, positionTotals, sumRupees } from './position-pnl';
import { portfolioQueries } from './queries';
import { useProductName } from '../session/use-broker-offers';
import { useHoldingsPnl } from './use-holdings-pnl';
import { ExitSelected } from '../safety/safety-buttons';
import { GttFromPosition } from '../gtt/gtt-buttons';
import { PositionsByUnderlying } from './positions-by-underlying';
import { ActionsHeader } from '../layout/record-table';

/**
 * Net positions with P&L per row and in total, recomputed at each tick from the broker's exact
 * values (position-pnl.ts). "Day P&L" is the day's mark to market (m2m: a carried position
 * counts from the previous close); "Overall" is the positions' total P&L plus the holdings'.
 * Exit fills the ticket with the opposite order for the open quantity; "Exit selected" exits the
 * ticked positions at once through main's safety run (docs/contract.md §Kill switch).
 */
export function PositionsPanel() {
  const refetchInterval = usePollInterval('positions');
  const result = useQuery({ ...portfolioQueries.positions(), refetchInterval });
  // Products as the session's broker names them (Upstox: I, D).
  const productName = useProductName();
  const quotes = useQuotes();
  const { exitRequested } = useTicketActions();
  const holdingsPnl = useHoldingsPnl();
  const { byToken } = useInstruments();
  const positions = result.data ?? [];
  useMarketSubscription(
    'positions',
    positions.map((p) => p.instrumentToken),
  );
  const rows = positions.map((p) => ({
    p,
    m: markPosition(p, quotes[p.instrumentToken]?.lastPrice),
    tick: byToken.get(p.instrumentToken)?.tickSize,
  }));
  // The same totals Funds shows (position-pnl.ts `positionTotals`).
  const totals = positionTotals(positions, (token) => quotes[token]?.lastPrice);
  const day = totals.m2m;
  const totalPnl = totals.pnl;
  const overall = sumRupees([totalPnl, holdingsPnl]);
  const keyOf = (p: Position): string => `${p.exchange}:${p.tradingsymbol}:${p.product}`;
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [grouped, setGrouped] = useState(false);
  const selected = positions
    .filter((p) => p.quantity !== 0 && ticked.has(keyOf(p)))
    .map((p) => ({ exchange: p.exchange, tradingsymbol: p.tradingsymbol, product: p.product }));
  const toggle = (p: Position, on: boolean): void =>
    setTicked((s) => {
      const next = new Set(s);
      if (on) next.add(keyOf(p));
      else next.delete(keyOf(p));
      return next;
    });
  const exit = (p: Position): void =>
    exitRequested({
      instrumentToken: p.instrumentToken,
      side: p.quantity > 0 ? 'SELL' : 'BUY',
      quantity: Math.abs(p.quantity),
      product: p.product,
    });

  return (
    <Panel
      title="Positions"
      source={{ ...result, queryKey: portfolioQueries.positions().queryKey }}
      actions={
        <span className="totals">
          <label className="check small">
            <input type="checkbox" checked={grouped} onChange={(e) => setGrouped(e.target.checked)} />
            By underlying
          </label>{' '}
          <ExitSelected positions={selected} /> Day P&amp;L{' '}
          <strong className={`num ${signClass(day)}`} data-testid="day-pnl">
            {formatPnl(day)}
          </strong>{' '}
          · Overall{' '}
          <strong className={`num ${signClass(overall)}`} data-testid="overall-pnl">
            {formatPnl(overall)}
          </strong>{' '}
          <ExportButton book="positions" />
        </span>
      }
    >
      {result.data === undefined ? (
        <PanelPlaceholder what="positions" error={result.error} />
      ) : grouped ? (
        <div className="table-scroll">
          <PositionsByUnderlying positions={positions} quotes={quotes} />
        </div>
      ) : (
        <div className="table-scroll">
          <table aria-label="Positions" className="grid">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <th>Symbol</th>
                <th>Product</th>
                <th className="num">Net qty</th>
                <th className="num">Avg</th>
                <th className="num">LTP</th>
                <th className="num">Unrealised</th>
                <th className="num">Realised</th>
                <th className="num">P&amp;L</th>
                <th className="num">Day</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? <EmptyRow colSpan={11}>No positions</EmptyRow> : null}
              {rows.map(({ p, m, tick }) => (
                <tr key={`${p.instrumentToken}:${p.product}`}>
                  <td>
                    {p.quantity !== 0 ? (
                      <input
                        type="checkbox"
                        aria-label={`Select ${p.tradingsymbol} ${p.product}`}
                        checked={ticked.has(keyOf(p))}
                        onChange={(e) => toggle(p, e.target.checked)}
                      />
                    ) : null}
                  </td>
                  <td className="sym">
                    {p.tradingsymbol} <span className="muted small">{p.exchange}</span>
                  </td>
                  <td>{productName(p.product)}</td>
                  <td className={p.quantity > 0 ? 'num buy' : p.quantity < 0 ? 'num sell' : 'num'}>
                    {formatSignedQty(p.quantity)}
                  </td>
                  <td className="num">{formatPrice(p.averagePrice, tick)}</td>
                  <td className="num">
                    <LivePrice
                      quote={quotes[p.instrumentToken]}
                      fallback={p.lastPrice}
                      tickSize={tick}
                      testId={`pos-ltp-${p.tradingsymbol}`}
                    />
                  </td>
                  <td className={`num ${signClass(m.unrealised)}`}>{formatPnl(m.unrealised)}</td>
                  <td className={`num ${signClass(p.realisedPnl)}`}>{formatPnl(p.realisedPnl)}</td>
                  <td className={`num ${signClass(m.pnl)}`} data-testid={`pos-pnl-${p.tradingsymbol}`}>
                    {formatPnl(m.pnl)}
                  </td>
                  <td className={`num ${signClass(m.m2m)}`} data-testid={`pos-day-${p.tradingsymbol}`}>
                    {formatPnl(m.m2m)}
                  </td>
                  <td className="row-actions">
                    {p.quantity !== 0 ? (
                      <>
                        <button
                          type="button"
                          aria-label={`Exit ${p.tradingsymbol} ${p.product}`}
                          onClick={() => exit(p)}
                        >
                          Exit
                        </button>
                        <GttFromPosition
                          position={p}
                          lastPrice={quotes[p.instrumentToken]?.lastPrice ?? p.lastPrice}
                          tickSize={tick}
                        />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
            {rows.length > 0 ? (
              <tfoot>
                <tr>
                  <th scope="row" colSpan={6}>
                    Total
                  </th>
                  <td className={`num ${signClass(totals.unrealised)}`} data-testid="total-unrealised">
                    {formatPnl(totals.unrealised)}
                  </td>
                  <td className={`num ${signClass(totals.realised)}`}>{formatPnl(totals.realised)}</td>
                  <td className={`num ${signClass(totalPnl)}`}>{formatPnl(totalPnl)}</td>
                  <td className={`num ${signClass(day)}`}>{formatPnl(day)}</td>
                  <td />
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      )}
    </Panel>
  );
}
