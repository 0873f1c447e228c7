import { useEffect } from 'react';
import { MAIN_WINDOW, type DeskCommand, type PanelId } from '@shared/domain/workstation';
import { cycleWindow } from '@shared/workstation/desk-model';
import { call, subscribe } from '../../lib/ipc-client';
import { shortcutFor } from '../../lib/shortcuts';
import { useTabsActions } from '../layout/tabs-store';
import { useDeskView } from './desk-queries';
import { raisePopout } from './popout-windows';
import { THIS_WINDOW } from './this-window';
import { SLOT_OF_KIND } from './slot-of-kind';

/**
 * The windows answering one another (docs/workstation.md §Link): a `desk.command` naming this
 * window takes the focus (Electron's shell raises the window; a browser may let the page that
 * opened it raise it) and shows the panel asked for; Ctrl+` asks the next open window of the
 * desk to take it. Mounted once per page.
 */
export function useDeskCommands(): void {
  const view = useDeskView();
  const { tabShown } = useTabsActions();

  useEffect(
    () =>
      subscribe('desk.command', (cmd: DeskCommand) => {
        if (cmd.window !== THIS_WINDOW || cmd.type !== 'focus') return;
        window.focus();
        if (cmd.panel) showPanel(cmd.panel, view?.desk.panels.find((p) => p.id === cmd.panel)?.kind, tabShown);
      }),
    [view, tabShown],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (shortcutFor('anywhere', e) !== 'next-window' || !view) return;
      e.preventDefault();
      goToWindow(cycleWindow(view.open, THIS_WINDOW), null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view]);
}

/** Asks window `id` to take the focus (and show `panel`); a pop-out raises the main window it came from. */
export function goToWindow(id: string, panel: PanelId | null): void {
  if (id === THIS_WINDOW) {
    if (panel) showPanel(panel, undefined, null);
    return;
  }
  raisePopout(id);
  if (id === MAIN_WINDOW) window.opener?.focus?.();
  call('desk.command', { type: 'focus', window: id, panel }).catch(() => undefined);
}

/** Shows `panel` (its tab, in a tabbed slot) and focuses its region once it is drawn. */
function showPanel(panel: PanelId, kind: string | undefined, tabShown: ((slot: string, tab: string) => void) | null) {
  const slot = SLOT_OF_KIND[kind ?? panel.replace(/-\d+$/, '')];
  if (slot && tabShown && THIS_WINDOW === MAIN_WINDOW) tabShown(slot, panel);
  const focus = (left: number): void => {
    const el = document.querySelector<HTMLElement>(`[data-desk-panel="${panel}"]`);
    if (el) el.focus();
    else if (left > 0) requestAnimationFrame(() => focus(left - 1));
  };
  focus(30);
}
