import { useEffect, useRef } from 'react';
import { call } from '../../lib/ipc-client';
import { useSelectedToken, useTicketActions } from '../ticket/ticket-store';
import { useDeskView } from './desk-queries';
import { windowGroup } from './link-model';
import { THIS_WINDOW } from './this-window';

/**
 * Keeps this page's selection and its window's own group one instrument (`link-model.ts`):
 * the group changed from another window becomes the selection here, and a selection made here is
 * sent to the group. Only a change of the group's instrument is taken, so a `desk.changed` for
 * something else never undoes what the trader has just picked. Mounted once per page.
 */
export function useLinkSync(): void {
  const view = useDeskView();
  const selected = useSelectedToken();
  const { instrumentSelected } = useTicketActions();
  const group = windowGroup(view, THIS_WINDOW);
  const remote = group === null ? null : (view?.desk.links[group] ?? null);
  const seen = useRef<number | null | undefined>(undefined);

  useEffect(() => {
    if (!view || group === null || remote === seen.current) return;
    seen.current = remote;
    if (remote !== null && remote !== selected) instrumentSelected(remote);
  }, [view, group, remote, selected, instrumentSelected]);

  useEffect(() => {
    if (!view || group === null || selected === null || selected === remote) return;
    call('desk.link', { group, instrument: selected }).catch(() => undefined);
    // Only a new selection is sent: the group's instrument arriving is not one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);
}
