import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DeskView } from '@shared/domain/workstation';
import { call, subscribe } from '../../lib/ipc-client';

/**
 * The live desk as every page sees it (docs/workstation.md §The desk): read once with
 * `desk.view`, then replaced whole by each `desk.changed` main pushes. Nothing here keeps a copy
 * of its own: a page draws its window from this view.
 */
export const deskQueries = {
  view: () => queryOptions({ queryKey: ['desk', 'view'], queryFn: () => call('desk.view'), staleTime: Infinity }),
};

/** The desk view (undefined until the first reply). */
export function useDeskView(): DeskView | undefined {
  return useQuery(deskQueries.view()).data;
}

/** Keeps the desk view current from `desk.changed`; mounted once per page. */
export function useDeskEvents(): void {
  const client = useQueryClient();
  useEffect(
    () => subscribe('desk.changed', (view) => client.setQueryData(deskQueries.view().queryKey, view)),
    [client],
  );
}

/**
 * Tells main the main window's first screen has painted: its login work that waits for it (the
 * drift alarm's first check) goes ahead (docs/live-data.md §The first screen first). Nothing to
 * show if it fails: main waits a few seconds at most.
 */
export function firstScreenDrawn(): void {
  call('desk.firstScreen').catch(() => undefined);
}
