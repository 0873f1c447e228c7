import { useEffect } from 'react';
import { CommandPalette } from './features/keyboard/command-palette';
import { ShortcutsSheet } from './features/keyboard/shortcuts-sheet';
import { useOverlayHotkeys } from './features/keyboard/use-overlay-hotkeys';
import { Workspace, type WorkspaceGroup } from './features/layout/workspace';
import { Toaster } from './features/notifications/toaster';
import { GttDialogHost } from './features/gtt/gtt-dialog';
import { UnconfirmedBadge } from './features/placements/unconfirmed-badge';
import { usePlacementEvents } from './features/placements/queries';
import { KillSwitchButton, SafetyConfirmSlot, useKillSwitchHotkey } from './features/safety/kill-switch';
import { ConnectionStatus } from './features/session/connection-status';
import { useBridgeEvents } from './features/session/use-bridge-events';
import { useTicketHotkeys } from './features/ticket/use-ticket-hotkeys';
import { DeskPanelProvider } from './features/workstation/desk-panel';
import { useDeskView } from './features/workstation/desk-queries';
import { panelsIn, panelTitle } from './features/workstation/panel-kinds';
import { PanelView } from './features/workstation/panel-views';
import { THIS_WINDOW, windowName } from './features/workstation/this-window';
import { useEveryPage } from './features/workstation/use-every-page';
import { useWorkspaceLoad } from './features/workstation/use-workspace-load';
import { useTheme } from './state/settings-store';
import './features/workstation/workstation.css';
import { PaintRateNote } from './features/market/paint-rate-note';

/**
 * A pop-out window's page (docs/workstation.md §Windows): the panels the desk puts in this window
 * and nothing else, each loading its own code; the header keeps what a trader must see in every
 * window (connection, unconfirmed orders, the kill switch). Its data comes through its own bridge
 * like any page: main fans every event out to every window.
 */
export function PopoutApp() {
  const theme = useTheme();
  useBridgeEvents();
  usePlacementEvents();
  useEveryPage();
  useOverlayHotkeys();
  useTicketHotkeys();
  useKillSwitchHotkey();
  const loadKey = useWorkspaceLoad();
  const view = useDeskView();
  const panels = panelsIn(view, THIS_WINDOW);
  const deskWindow = view?.desk.windows.find((w) => w.id === THIS_WINDOW);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const title = `Tradedesk · ${panels.map(panelTitle).join(', ') || windowName(THIS_WINDOW)}`;
  useEffect(() => {
    document.title = title;
  }, [title]);

  const layout: WorkspaceGroup = {
    id: `popout-${THIS_WINDOW}`,
    orientation: deskWindow?.orientation ?? 'horizontal',
    panels: panels.map((p) => ({
      id: p.id,
      defaultPercent: 100 / panels.length,
      min: 10,
      panel: (
        <DeskPanelProvider panel={p}>
          <PanelView kind={p.kind} />
        </DeskPanelProvider>
      ),
    })),
  };

  return (
    <div className="app popout">
      <header className="topbar">
        <h1>Tradedesk · {windowName(THIS_WINDOW)}</h1>
        <ConnectionStatus />
        <UnconfirmedBadge />
        <PaintRateNote />
        <span className="topbar__spacer" />
        <KillSwitchButton />
      </header>
      <SafetyConfirmSlot />
      <main className="workspace">
        {!view ? (
          <p className="empty">Loading the desk…</p>
        ) : panels.length === 0 ? (
          <p className="empty">This window has no panels: they are back in the main window. You can close it.</p>
        ) : (
          <Workspace key={`${loadKey}:${panels.map((p) => p.id).join(',')}`} layout={layout} />
        )}
      </main>
      <GttDialogHost />
      {/* The notifications in the window's own status bar, as in the main window (docs/renderer.md §Notifications). */}
      <footer className="statusbar">
        <Toaster />
      </footer>
      <CommandPalette />
      <ShortcutsSheet />
    </div>
  );
}
