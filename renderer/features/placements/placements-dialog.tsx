import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Placement } from '@shared/domain/placement';
import { formatAge, formatIstTime, formatPrice, formatQty } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { Dialog } from '../layout/dialog';
import { RecordTable, RowActions } from '../layout/record-table';
import { PlacementActions } from './placement-actions';
import { isOpenPlacement, needsDecision, PLACEMENT_MARK, placementStateText } from './placement-model';
import { placementQueries } from './queries';

/**
 * Every order not yet confirmed, and every one waiting for the trader's decision after a
 * restart, with "Place again" / "Discard" on the latter. A row that settles while the dialog is
 * open stays, showing how it ended, so a click's result is never a row that silently vanishes.
 */
export function PlacementsDialog({ onClose }: { readonly onClose: () => void }) {
  const { data = [] } = useQuery(placementQueries.list());
  const unreadable = useQuery(placementQueries.records()).data?.unreadable ?? null;
  const now = useNow();
  const [shown, setShown] = useState<ReadonlySet<string>>(
    () => new Set(data.filter(isOpenPlacement).map((p) => p.clientOrderId)),
  );
  const newlyOpen = data.filter((p) => isOpenPlacement(p) && !shown.has(p.clientOrderId));
  if (newlyOpen.length > 0) setShown(new Set([...shown, ...newlyOpen.map((p) => p.clientOrderId)]));
  const listed = data.filter((p) => isOpenPlacement(p) || shown.has(p.clientOrderId));
  // Intents of earlier days than the broker still lists are listed apart: not finding them proves nothing.
  const rows = listed.filter((p) => p.state !== 'unverifiable');
  const earlier = listed.filter((p) => p.state === 'unverifiable');

  return (
    <Dialog title="Unconfirmed orders" onClose={onClose} wide>
      {unreadable ? (
        <p role="alert" className="placements-notice">
          ⚠ {unreadable.count} unreadable placement record{unreadable.count === 1 ? '' : 's'} kept in{' '}
          <code>{unreadable.keptIn}</code>. Tradedesk could not read {unreadable.count === 1 ? 'it' : 'them'}, so{' '}
          {unreadable.count === 1 ? 'it' : 'each'} may be an order you placed: check the broker’s order book.
        </p>
      ) : null}
      {earlier.length > 0 ? (
        <PlacementTable
          label="From earlier days — cannot be verified"
          caption="The broker no longer lists orders that old, so Tradedesk cannot tell whether these exist. Check the broker's order history before you place one again: it may make a second order."
          rows={earlier}
          now={now}
        />
      ) : null}
      {rows.length === 0 && earlier.length === 0 ? (
        <p className="muted">Every order is confirmed: nothing is waiting for the broker or for you.</p>
      ) : rows.length === 0 ? null : (
        <PlacementTable label="Unconfirmed orders" rows={rows} now={now} />
      )}
    </Dialog>
  );
}

function PlacementTable({
  label,
  caption,
  rows,
  now,
}: {
  readonly label: string;
  readonly caption?: string;
  readonly rows: readonly Placement[];
  readonly now: number;
}) {
  return (
    <>
      {caption ? (
        <>
          <h3 className="placements-heading">{label}</h3>
          <p className="muted">{caption}</p>
        </>
      ) : null}
      <RecordTable
        label={label}
        className="grid--placements"
        columns={['Clicked', 'Symbol', 'Side', { header: 'Qty', num: true }, 'Type / price', 'Reference', 'State']}
        records={rows}
        what="unconfirmed orders"
        empty="Nothing is waiting for the broker or for you."
        row={(p) => <PlacementRow key={p.clientOrderId} placement={p} now={now} />}
      />
    </>
  );
}

function PlacementRow({ placement: p, now }: { readonly placement: Placement; readonly now: number }) {
  const o = p.order;
  return (
    <tr data-placement={p.clientOrderId} className={`placement-row placement-row--${p.state}`}>
      <td title={`Clicked at ${formatIstTime(p.journaledAt)} IST`}>{ageText(now - p.journaledAt)}</td>
      <td className="sym">{o.tradingsymbol}</td>
      <td className={o.transactionType === 'BUY' ? 'buy' : 'sell'}>{o.transactionType}</td>
      <td className="num">{formatQty(o.quantity)}</td>
      <td>
        {o.orderType}
        {o.price ? ` @ ${formatPrice(o.price)}` : ''}
        {o.triggerPrice ? ` trg ${formatPrice(o.triggerPrice)}` : ''} · {o.product}
      </td>
      <td>
        <code className="reference">{p.clientOrderId}</code>
      </td>
      <td className="placement-state">
        <span className={`placement-mark placement-mark--${p.state}`}>{PLACEMENT_MARK[p.state]}</span>{' '}
        {placementStateText(p)}
      </td>
      <RowActions>{needsDecision(p) ? <PlacementActions placement={p} /> : null}</RowActions>
    </tr>
  );
}

/** "just now", "12 s ago", "3 min ago". */
function ageText(ms: number): string {
  return ms < 1_000 ? 'just now' : `${formatAge(ms)} ago`;
}
