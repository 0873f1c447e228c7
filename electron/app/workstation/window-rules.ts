import { MAIN_WINDOW, type DeskView, type DeskWindow, type ScreenRect } from '@shared/domain/workstation';
import { cascadeFrom, placeOnDisplays, type DisplayArea } from '@shared/workstation/display-bounds';

/**
 * What the Electron shell does with the desk's windows, decided by plain functions so the rules
 * run under Node and are unit-tested; the shell (`electron/main/window/desk-windows.ts`) only
 * carries them out (docs/workstation.md §Windows).
 */

/** A pop-out's first size when the desk has none for it. */
export const POPOUT_SIZE = { width: 760, height: 540 } as const;
/** How far a new pop-out steps from the window it came from, so it does not hide it exactly. */
export const CASCADE_STEP = 40;

/** The page a desk window loads: the app's own page, naming the window (`index.html?window=w2`). */
export function windowUrl(entryUrl: string, id: string): string {
  if (id === MAIN_WINDOW) return entryUrl;
  const url = new URL(entryUrl);
  url.searchParams.set('window', id);
  return url.toString();
}

/** Which shell windows to open and which to close so the shell shows exactly the desk's windows. */
export function reconcileWindows(
  desk: readonly DeskWindow[],
  shown: ReadonlySet<string>,
): { readonly open: readonly DeskWindow[]; readonly close: readonly string[] } {
  const wanted = new Set(desk.map((w) => w.id));
  return {
    open: desk.filter((w) => w.id !== MAIN_WINDOW && !shown.has(w.id)),
    close: [...shown].filter((id) => id !== MAIN_WINDOW && !wanted.has(id)),
  };
}

/**
 * Where a desk window opens: its saved bounds brought onto a display there is (a screen gone since
 * it was saved), else a step from the main window.
 */
export function openingBounds(
  window: DeskWindow,
  mainBounds: ScreenRect | null,
  displays: readonly DisplayArea[],
  defaultSize: { readonly width: number; readonly height: number } = POPOUT_SIZE,
): { bounds: ScreenRect; display: string | null } {
  if (window.bounds) return placeOnDisplays(window.bounds, window.display, displays);
  const bounds = cascadeFrom(mainBounds, defaultSize, CASCADE_STEP, displays);
  return { bounds, display: null };
}

/** The question closing the main window asks while pop-outs are open; null: close at once. */
export function closeDeskQuestion(openPopouts: number): {
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly [close: string, cancel: string];
} | null {
  if (openPopouts <= 0) return null;
  return {
    message: 'Close the desk?',
    detail: `${openPopouts === 1 ? 'The other window closes' : `The ${openPopouts} other windows close`} with it. Orders, alerts and GTTs stay with the broker; the desk opens as it is now next time.`,
    buttons: ['Close the desk', 'Cancel'],
  };
}

/** How many of the view's windows are open pop-outs. */
export function openPopouts(view: DeskView): number {
  return view.open.filter((id) => id !== MAIN_WINDOW).length;
}
