import { useEffect } from 'react';
import { create } from 'zustand';
import type { DeskView } from '@shared/domain/workstation';
import { useSettingsActions } from '../../state/settings-store';
import { tabsLoaded } from '../layout/tabs-store';
import { useDeskView } from './desk-queries';
import { THIS_WINDOW } from './this-window';

const APPLIED_KEY = `tradedesk.workspace-applied.${THIS_WINDOW}`;

/** The load this window drew its workspace tree for last. */
const useDrawnLoad = create<{ readonly key: string }>()(() => ({ key: '' }));

/** A load as a stamp: its name and number (main counts loads from its start). */
export function loadStamp(loaded: DeskView['loaded']): string | null {
  return loaded ? `${loaded.name}#${loaded.generation}` : null;
}

/**
 * Applies a loaded workspace's panel sizes and tabs to this window once per load
 * (docs/workstation.md §Workspaces): the stamp of the load applied last is kept per window, so a
 * reload does not undo the trader's resizing since. Answers a key that changes at each load:
 * the workspace tree is drawn afresh with it, since a group takes its sizes when it mounts.
 */
export function useWorkspaceLoad(): string {
  const view = useDeskView();
  const { layoutChanged } = useSettingsActions();
  const key = useDrawnLoad((s) => s.key);
  const stamp = loadStamp(view?.loaded ?? null);
  useEffect(() => {
    const loaded = view?.loaded;
    if (!loaded || stamp === null || localStorage.getItem(APPLIED_KEY) === stamp) return;
    localStorage.setItem(APPLIED_KEY, stamp);
    for (const [group, sizes] of Object.entries(loaded.layouts)) layoutChanged(group, sizes);
    tabsLoaded(loaded.tabs);
    useDrawnLoad.setState({ key: stamp });
  }, [view, stamp, layoutChanged]);
  return key;
}
