import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { needsDecision, openPlacements } from './placement-model';
import { PlacementsDialog } from './placements-dialog';
import { placementQueries } from './queries';
import './placements.css';

/**
 * "2 unconfirmed" in the header, next to the connection status, while any order is not yet
 * confirmed or waits for the trader's decision; a click lists them (docs/money-path.md, "The
 * money path on screen"). Nothing shows while there are none.
 */
export function UnconfirmedBadge() {
  const { data } = useQuery(placementQueries.list());
  const unreadable = useQuery(placementQueries.records()).data?.unreadable ?? null;
  const [open, setOpen] = useState(false);
  const pending = openPlacements(data);
  const deciding = pending.filter(needsDecision).length;
  return (
    <>
      {unreadable ? (
        <button
          type="button"
          className="unconfirmed-badge unconfirmed-badge--decide"
          data-testid="unreadable-records-badge"
          aria-haspopup="dialog"
          title={`Kept in ${unreadable.keptIn}`}
          onClick={() => setOpen(true)}
        >
          ⚠ {unreadable.count} unreadable record{unreadable.count === 1 ? '' : 's'}
        </button>
      ) : null}
      {pending.length > 0 ? (
        <button
          type="button"
          className={`unconfirmed-badge${deciding > 0 ? ' unconfirmed-badge--decide' : ''}`}
          data-testid="unconfirmed-badge"
          aria-haspopup="dialog"
          title={deciding > 0 ? `${deciding} need your decision` : 'Checking with the broker'}
          onClick={() => setOpen(true)}
        >
          {pending.length} unconfirmed
        </button>
      ) : null}
      {open ? <PlacementsDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
