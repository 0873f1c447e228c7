import { AppError } from '../ipc/app-error';
import {
  MAIN_WINDOW,
  type Desk,
  type DeskPanel,
  type DeskWindow,
  type LinkGroup,
  type PanelId,
  type ScreenRect,
  type WindowId,
} from '../domain/workstation';

/**
 * The desk's changes as pure functions (docs/workstation.md §The desk): main applies them to the
 * one live desk, the renderer reads the same model to draw its window. Every function returns a
 * new desk and never changes the one it was given; a change the desk cannot take is an
 * `AppError` naming the field.
 */

/** A new desk: the main window alone, nothing linked yet. */
export function emptyDesk(): Desk {
  return { windows: [mainWindow()], panels: [], links: {} };
}

function mainWindow(): DeskWindow {
  return { id: MAIN_WINDOW, bounds: null, display: null, orientation: 'horizontal' };
}

/** At most this many windows (the main one included) and panels with state. */
export const MAX_WINDOWS = 16;
export const MAX_PANELS = 64;

function refuse(field: string, message: string): never {
  throw new AppError({ kind: 'bad_request', message, field });
}

/** The window `id`, or undefined. */
export function windowOf(desk: Desk, id: WindowId): DeskWindow | undefined {
  return desk.windows.find((w) => w.id === id);
}

/** The pop-out windows, in the order they were opened. */
export function popouts(desk: Desk): readonly DeskWindow[] {
  return desk.windows.filter((w) => w.id !== MAIN_WINDOW);
}

/** The smallest `wN` not in use. */
export function newWindowId(desk: Desk): WindowId {
  const used = new Set(desk.windows.map((w) => w.id));
  for (let n = 1; n < 1000; n += 1) if (!used.has(`w${n}`)) return `w${n}`;
  return refuse('window', 'No window id left');
}

/** A second (third…) panel of `kind`: `chart-2`, the smallest number not in use. */
export function newPanelId(desk: Desk, kind: string): PanelId {
  const used = new Set(desk.panels.map((p) => p.id));
  for (let n = 2; n < 1000; n += 1) if (!used.has(`${kind}-${n}`)) return `${kind}-${n}`;
  return refuse('kind', `No ${kind} id left`);
}

/** True for a kind's own panel (`chart`); false for another one of the kind (`chart-2`). */
export function isKindsOwn(panel: Pick<DeskPanel, 'id' | 'kind'>): boolean {
  return panel.id === panel.kind;
}

/** Puts `panel` on the desk, replacing the entry with its id. */
export function withPanel(desk: Desk, panel: DeskPanel): Desk {
  if (!windowOf(desk, panel.window)) refuse('panel.window', `Window ${panel.window} is not on the desk`);
  const others = desk.panels.filter((p) => p.id !== panel.id);
  if (others.length >= MAX_PANELS) refuse('panel', `At most ${MAX_PANELS} panels`);
  const known = desk.panels.find((p) => p.id === panel.id);
  if (known && known.kind !== panel.kind)
    refuse('panel.kind', `Panel ${panel.id} is a ${known.kind}, not a ${panel.kind}`);
  return dropEmptyPopouts({ ...desk, panels: [...others, panel] });
}

/** A pop-out left without a panel closes: a window with nothing in it is no window the trader wants. */
function dropEmptyPopouts(desk: Desk): Desk {
  const used = new Set(desk.panels.map((p) => p.window));
  return { ...desk, windows: desk.windows.filter((w) => w.id === MAIN_WINDOW || used.has(w.id)) };
}

/** Adds a pop-out window, at `bounds` when given. */
export function withNewWindow(
  desk: Desk,
  bounds: ScreenRect | null,
  display: string | null = null,
): { desk: Desk; window: WindowId } {
  if (desk.windows.length >= MAX_WINDOWS) refuse('to', `At most ${MAX_WINDOWS} windows`);
  const id = newWindowId(desk);
  const window: DeskWindow = { id, bounds, display, orientation: 'horizontal' };
  return { desk: { ...desk, windows: [...desk.windows, window] }, window: id };
}

/**
 * Moves `panel` (as the page sees it, so a kind's own panel that has no entry yet gets one) to
 * window `to`, or into a new window. A pop-out it leaves empty closes.
 */
export function movePanel(
  desk: Desk,
  panel: DeskPanel,
  to: WindowId | 'new',
  bounds: ScreenRect | null = null,
): { desk: Desk; window: WindowId } {
  let next = desk;
  let target: WindowId;
  if (to === 'new') {
    ({ desk: next, window: target } = withNewWindow(desk, bounds));
  } else {
    if (!windowOf(desk, to)) refuse('to', `Window ${to} is not on the desk`);
    target = to;
  }
  return { desk: withPanel(next, { ...panel, window: target }), window: target };
}

/**
 * Closes pop-out `id`: its panels go back to the main window (a kind's own to its place there,
 * another one of a kind beside it), keeping their links, instruments and options.
 */
export function closeWindow(desk: Desk, id: WindowId): Desk {
  if (id === MAIN_WINDOW) refuse('window', 'The main window is the desk: it closes with the app');
  if (!windowOf(desk, id)) return desk;
  return {
    ...desk,
    windows: desk.windows.filter((w) => w.id !== id),
    panels: desk.panels.map((p) => (p.window === id ? { ...p, window: MAIN_WINDOW } : p)),
  };
}

/** Takes another panel of a kind off the desk (a kind's own panel is never removed, only moved). */
export function removePanel(desk: Desk, id: PanelId): Desk {
  const panel = desk.panels.find((p) => p.id === id);
  if (!panel) return desk;
  if (isKindsOwn(panel)) refuse('panel', `The ${panel.kind} panel cannot be removed, only moved`);
  return dropEmptyPopouts({ ...desk, panels: desk.panels.filter((p) => p.id !== id) });
}

/** Sets what a colour group shows. */
export function withLink(desk: Desk, group: LinkGroup, instrument: number): Desk {
  if (desk.links[group] === instrument) return desk;
  return { ...desk, links: { ...desk.links, [group]: instrument } };
}

/** Records where window `id` is now (the shell saw it moved or resized). */
export function withBounds(desk: Desk, id: WindowId, bounds: ScreenRect, display: string | null): Desk {
  const w = windowOf(desk, id);
  if (!w) return desk;
  if (sameRect(w.bounds, bounds) && w.display === display) return desk;
  return { ...desk, windows: desk.windows.map((x) => (x.id === id ? { ...x, bounds, display } : x)) };
}

/** Sets how a pop-out lays out its panels. */
export function withOrientation(desk: Desk, id: WindowId, orientation: DeskWindow['orientation']): Desk {
  if (!windowOf(desk, id)) refuse('window', `Window ${id} is not on the desk`);
  return { ...desk, windows: desk.windows.map((w) => (w.id === id ? { ...w, orientation } : w)) };
}

function sameRect(a: ScreenRect | null, b: ScreenRect | null): boolean {
  return (
    a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height)
  );
}

/**
 * The window after `current` among `open` (the desk's order: main, then the pop-outs as they
 * were opened), wrapping round; `step` -1 goes back. The keyboard's window cycle.
 */
export function cycleWindow(open: readonly WindowId[], current: WindowId, step: 1 | -1 = 1): WindowId {
  if (open.length === 0) return current;
  const at = open.indexOf(current);
  if (at < 0) return open[0]!;
  return open[(at + step + open.length) % open.length]!;
}
