import { useMemo } from 'react';
import { keysOf } from '../../lib/shortcuts';
import type { PaletteAction } from '../keyboard/palette-model';
import { useDeskView } from './desk-queries';
import { goToWindow } from './use-desk-commands';
import { allPanels, panelTitle } from './panel-kinds';
import { THIS_WINDOW, windowName } from './this-window';
import { cycleWindow } from '@shared/workstation/desk-model';
import { loadWorkspace } from './workspace-actions';
import { call } from '../../lib/ipc-client';
import { useSelectedToken } from '../ticket/ticket-store';
import { openPopout } from './popout-windows';

/**
 * The workstation's palette entries (docs/workstation.md): go to any panel in any window ("Go to:
 * Chart (window 2)"), the next window, load a workspace, and open another chart in a window of its
 * own.
 */
export function useDeskPaletteActions(): readonly PaletteAction[] {
  const view = useDeskView();
  const selected = useSelectedToken();
  return useMemo(() => {
    if (!view) return [];
    const several = view.desk.windows.length > 1;
    const goTo: PaletteAction[] = allPanels(view)
      .filter((p) => several || p.id !== p.kind)
      .map((p) => ({
        id: `go-panel-${p.id}`,
        label: `Go to: ${panelTitle(p)} (${windowName(p.window)})`,
        run: () => goToWindow(p.window, p.id),
      }));
    const next: PaletteAction[] = several
      ? [
          {
            id: 'next-window',
            label: 'Go to the next window',
            keys: keysOf('next-window'),
            run: () => goToWindow(cycleWindow(view.open, THIS_WINDOW), null),
          },
        ]
      : [];
    const loads: PaletteAction[] = view.workspaces.map((name) => ({
      id: `workspace-${name}`,
      label: `Load workspace: ${name}`,
      run: () => void loadWorkspace(name).catch(() => undefined),
    }));
    // Another chart starts unlinked, on the instrument selected here: a second view of its own.
    const panel = { kind: 'chart', link: null, instrument: selected, options: {} };
    const charts: PaletteAction[] = [
      {
        id: 'new-chart-here',
        label: 'Open another chart here',
        run: () => void call('desk.open', { panel, to: THIS_WINDOW }).catch(() => undefined),
      },
      {
        id: 'new-chart-window',
        label: 'Open another chart in a new window',
        run: () =>
          void call('desk.open', { panel, to: 'new' })
            .then(({ window: id }) => {
              if (view.opener === 'page' && !openPopout(id)) return call('desk.close', { window: id });
            })
            .catch(() => undefined),
      },
    ];
    return [...goTo, ...next, ...loads, ...charts];
  }, [view, selected]);
}
