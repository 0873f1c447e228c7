import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { updateNoticeText } from '@shared/domain/update';
import { call, subscribe } from '../../lib/ipc-client';
import { Dialog } from '../layout/dialog';

/** The update check as main last read its feed (docs/architecture.md §Release). */
export const updateQueries = {
  status: () => queryOptions({ queryKey: ['updates'], queryFn: () => call('updates.status'), staleTime: Infinity }),
};

/**
 * The header's update notice (docs/architecture.md §Release): shown only when main's feed names a
 * newer version. Nothing downloads or installs from here, and the desk never restarts for an
 * update; the notice says where to get it and that the install waits for an idle desk.
 */
export function UpdateNotice() {
  const client = useQueryClient();
  const status = useQuery(updateQueries.status());
  const [open, setOpen] = useState(false);
  useEffect(
    () => subscribe('updates.changed', (s) => client.setQueryData(updateQueries.status().queryKey, s)),
    [client],
  );
  const s = status.data;
  if (s?.kind !== 'available') return null;
  return (
    <>
      <button
        type="button"
        className="risk-chip"
        data-testid="update-notice"
        title={updateNoticeText(s) ?? undefined}
        onClick={() => setOpen(true)}
      >
        Update {s.version}
      </button>
      {open ? (
        <Dialog title={`Tradedesk ${s.version}`} onClose={() => setOpen(false)}>
          <p>{updateNoticeText(s)}</p>
          {s.notes ? <p className="update-notes">{s.notes}</p> : null}
          <p>
            Get it from <code>{s.url}</code>, or install it from Help › Check for updates… — the install waits while an
            order is unconfirmed, a bracket is active or a kill-switch run is going.
          </p>
          <div className="form__buttons">
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
