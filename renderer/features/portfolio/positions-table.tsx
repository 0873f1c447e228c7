import type { Position } from '@shared/domain/portfolio';
import { formatPnl, formatPrice, formatSignedQty, signClass } from '../../lib/format';
import { ACTIONS, GridTable, num, TotalsRow, type Column } from '../layout/grid-table';
import { LivePrice } from '../market/live-price';
import type { Quote, Quotes } from '../market/quote-cache';
import { GttFromPosition } from '../gtt/gtt-buttons';
import { useProductName } from '../session/use-broker-offers';
import type { PositionMark, PositionTotals } from './position-pnl';

/** A position with its P&L at the last price and its instrument's tick. */
export interface PositionLine {
  readonly p: Position;
  readonly m: PositionMark;
  readonly tick: number | undefined;
}

/** What the trader can do from a position's row: tick it for "Exit selected", or exit it from the ticket. */
interface RowActions {
  readonly onTick: (p: Position, on: boolean) => void;
  readonly onExit: (p: Position) => void;
}

const COLUMNS: readonly Column[] = [
  { header: 'Select', unseen: true },
  'Symbol',
  'Product',
  num('Net qty'),
  num('Avg'),
  num('LTP'),
  num('Unrealised'),
  num('Realised'),
  num('P&L'),
  num('Day'),
  ACTIONS,
];

/** The positions, one row each, with the totals under them (ticked ones exit as in docs/contract.md §Kill switch). */
export function PositionsTable({
  rows,
  totals,
  quotes,
  isTicked,
  onTick,
  onExit,
}: RowActions & {
  readonly rows: readonly PositionLine[];
  readonly totals: PositionTotals;
  readonly quotes: Quotes;
  readonly isTicked: (p: Position) => boolean;
}) {
  return (
    <GridTable
      label="Positions"
      columns={COLUMNS}
      rows={rows}
      none="No positions"
      foot={
        <TotalsRow span={6}>
          <td className={`num ${signClass(totals.unrealised)}`} data-testid="total-unrealised">
            {formatPnl(totals.unrealised)}
          </td>
          <td className={`num ${signClass(totals.realised)}`}>{formatPnl(totals.realised)}</td>
          <td className={`num ${signClass(totals.pnl)}`}>{formatPnl(totals.pnl)}</td>
          <td className={`num ${signClass(totals.m2m)}`}>{formatPnl(totals.m2m)}</td>
          <td />
        </TotalsRow>
      }
      row={({ p, m, tick }) => (
        <PositionRow
          key={`${p.instrumentToken}:${p.product}`}
          p={p}
          m={m}
          tick={tick}
          quote={quotes[p.instrumentToken]}
          ticked={isTicked(p)}
          onTick={onTick}
          onExit={onExit}
        />
      )}
    />
  );
}

/** One position: its quantities and prices, its P&L, and (while open) its tick box, Exit and GTT. */
function PositionRow({
  p,
  m,
  tick,
  quote,
  ticked,
  onTick,
  onExit,
}: RowActions &
  PositionLine & {
    readonly quote: Quote | undefined;
    readonly ticked: boolean;
  }) {
  // Products as the session's broker names them (Upstox: I, D).
  const productName = useProductName();
  return (
    <tr>
      <td>
        {p.quantity !== 0 ? (
          <input
            type="checkbox"
            aria-label={`Select ${p.tradingsymbol} ${p.product}`}
            checked={ticked}
            onChange={(e) => onTick(p, e.target.checked)}
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
        <LivePrice quote={quote} fallback={p.lastPrice} tickSize={tick} testId={`pos-ltp-${p.tradingsymbol}`} />
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
            <button type="button" aria-label={`Exit ${p.tradingsymbol} ${p.product}`} onClick={() => onExit(p)}>
              Exit
            </button>
            <GttFromPosition position={p} lastPrice={quote?.lastPrice ?? p.lastPrice} tickSize={tick} />
          </>
        ) : null}
      </td>
    </tr>
  );
}
