import { dialog, screen, type BrowserWindow, type Display } from 'electron';
import { MAIN_WINDOW, type DeskView } from '@shared/domain/workstation';
import { placeOnDisplays, type DisplayArea } from '@shared/workstation/display-bounds';
import type { EventHub } from '../../app/event-hub';
import type { Workstation } from '../../app/workstation/workstation';
import {
  closeDeskQuestion,
  openPopouts,
  openingBounds,
  reconcileWindows,
  windowUrl,
} from '../../app/workstation/window-rules';
import { createDeskWindow } from './main-window';
import { webContentsCaller } from '../ipc/electron-ipc';

/** How long a window's moves and resizes gather before its place is recorded. */
const MOVED_AFTER_MS = 400;

const areaOf = (d: Display): DisplayArea => ({
  id: String(d.id),
  bounds: d.bounds,
  workArea: d.workArea,
  primary: d.id === screen.getPrimaryDisplay().id,
});

/**
 * The desk's windows as BrowserWindows (docs/workstation.md §Windows): the shell mirrors the
 * workstation's desk — opens a window for each pop-out it has, closes the ones it no longer has,
 * records where each is moved, brings windows back onto a screen when a display is removed, and
 * raises a window another one asks for. Every rule is in `app/workstation/window-rules.ts`.
 */
export function mirrorDesk(
  workstation: Workstation,
  events: EventHub,
  preloadPath: string,
  entryUrl: string,
): {
  /** The desk's windows: events go to each, and only they may call (the sender check). */
  readonly windows: () => readonly BrowserWindow[];
  /** The app is quitting: windows closing now stay on the desk. */
  readonly deskClosing: () => void;
} {
  const shown = new Map<string, BrowserWindow>();
  // Set once the desk itself closes (its main window, or the app quitting): the pop-outs closing
  // with it stay on the desk, so it opens as it was next time.
  let deskClosing = false;
  const displays = (): DisplayArea[] => screen.getAllDisplays().map(areaOf);
  let generation = workstation.view().loaded?.generation ?? 0;

  const open = (view: DeskView, id: string): BrowserWindow => {
    const desk = view.desk.windows.find((w) => w.id === id)!;
    const main = shown.get(MAIN_WINDOW);
    const at =
      id === MAIN_WINDOW && !desk.bounds ? null : openingBounds(desk, main ? main.getBounds() : null, displays());
    const win = createDeskWindow(preloadPath, windowUrl(entryUrl, id), at?.bounds ?? null, id !== MAIN_WINDOW);
    shown.set(id, win);
    workstation.shellWindowOpened(id);
    // Its page's calls name their window, so what it watches is its own (docs/workstation.md §What a pop-out costs).
    const caller = webContentsCaller(win.webContents.id);
    workstation.pageOpened(caller, id);
    let moved: ReturnType<typeof setTimeout> | null = null;
    const record = (): void => {
      if (moved) clearTimeout(moved);
      moved = setTimeout(() => {
        if (win.isDestroyed()) return;
        const b = win.getBounds();
        workstation.windowMoved(id, b, String(screen.getDisplayMatching(b).id));
      }, MOVED_AFTER_MS);
    };
    win.on('move', record);
    win.on('resize', record);
    win.on('closed', () => {
      if (moved) clearTimeout(moved);
      if (shown.get(id) === win) shown.delete(id);
      workstation.pageClosed(caller);
      workstation.shellWindowClosed(id, !deskClosing);
    });
    if (id === MAIN_WINDOW) {
      // Closing the main window closes the desk: with pop-outs open it asks first.
      win.on('close', (event) => {
        const question = deskClosing ? null : closeDeskQuestion(openPopouts(workstation.view()));
        const answer = question
          ? dialog.showMessageBoxSync(win, {
              type: 'question',
              message: question.message,
              detail: question.detail,
              buttons: [...question.buttons],
              defaultId: 1,
              cancelId: 1,
            })
          : 0;
        if (answer !== 0) return event.preventDefault();
        deskClosing = true;
        for (const [other, w] of shown) if (other !== MAIN_WINDOW && !w.isDestroyed()) w.destroy();
      });
    }
    return win;
  };

  const mirror = (view: DeskView): void => {
    const { open: toOpen, close } = reconcileWindows(view.desk.windows, new Set(shown.keys()));
    for (const id of close) shown.get(id)?.close();
    for (const w of toOpen) open(view, w.id);
    // A workspace loaded: every window goes where the workspace has it.
    if ((view.loaded?.generation ?? 0) !== generation) {
      generation = view.loaded?.generation ?? 0;
      for (const w of view.desk.windows) {
        const win = shown.get(w.id);
        if (win && w.bounds) win.setBounds(placeOnDisplays(w.bounds, w.display, displays()).bounds);
      }
    }
  };

  // A screen unplugged: a window left off every screen comes back onto one.
  screen.on('display-removed', () => {
    for (const [id, win] of shown) {
      const saved = workstation.view().desk.windows.find((w) => w.id === id)?.display ?? null;
      const now = win.getBounds();
      const placed = placeOnDisplays(now, saved, displays());
      if (placed.bounds !== now) win.setBounds(placed.bounds);
    }
  });

  // Another window asked for this one (the palette, a ticket from a watchlist's B): raise it.
  events.on('desk.command', (command) => {
    const win = shown.get(command.window);
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  open(workstation.view(), MAIN_WINDOW);
  mirror(workstation.view());
  workstation.onChange(mirror);
  return {
    windows: () => [...shown.values()].filter((w) => !w.isDestroyed()),
    deskClosing: () => {
      deskClosing = true;
    },
  };
}
