import { useQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import type { Position } from '@shared/domain/portfolio';
import { formatPnl, signClass } from '../../lib/format';
import { ExportButton } from '../export/export-button';
import { useTicketActions } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotesOf } from '../market/use-quotes';
import { markPosition, positionTotals, sumRupees } from './position-pnl';
import { portfolioQueries } from './queries';
import { useHoldingsPnl } from './use-holdings-pnl';
import { ExitSelected } from '../safety/safety-buttons';
import { PositionsByUnderlying } from './positions-by-underlying';
import { PositionsTable } from './positions-table';

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
  const positions = result.data ?? [];
  const quotes = useQuotesOf(positions.map((p) => p.instrumentToken));
  const { exitRequested } = useTicketActions();
  const holdingsPnl = useHoldingsPnl();
  const { byToken } = useInstruments();
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
          <GroupToggle grouped={grouped} onGrouped={setGrouped} /> <ExitSelected positions={selected} /> Day P&amp;L{' '}
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
          <PositionsTable
            rows={rows}
            totals={totals}
            quotes={quotes}
            isTicked={(p) => ticked.has(keyOf(p))}
            onTick={toggle}
            onExit={exit}
          />
        </div>
      )}
    </Panel>
  );
}

/**
 * "By underlying", apart from the panel: the panel renders on every tick of a position's
 * instrument, and each render of a checkbox writes its attributes again (docs/live-data.md §A
 * ticking list's cost).
 */
const GroupToggle = memo(function GroupToggle(props: {
  readonly grouped: boolean;
  readonly onGrouped: (on: boolean) => void;
}) {
  return (
    <label className="check small">
      <input type="checkbox" checked={props.grouped} onChange={(e) => props.onGrouped(e.target.checked)} />
      By underlying
    </label>
  );
});
