import type { ScreenRect } from '../domain/workstation';

/**
 * Where a window restored from a workspace goes, given the displays there are now
 * (docs/workstation.md §Restoring onto the screens there are). A laptop taken off its dock has
 * lost the external screen its windows were saved on; they must come back onto a screen the
 * trader can see, never off-screen. Pure: the Electron shell passes `screen.getAllDisplays()`,
 * the browser host's page its own screen.
 */

/** One display as the shell sees it: its id, its whole area and the part windows may use (without the taskbar). */
export interface DisplayArea {
  readonly id: string;
  readonly bounds: ScreenRect;
  readonly workArea: ScreenRect;
  readonly primary: boolean;
}

/** Where a window is put, and on which display. */
export interface Placement {
  readonly bounds: ScreenRect;
  readonly display: string | null;
}

/**
 * How much of the window's top strip (its title bar, where the trader grabs it) must lie on one
 * display's work area for the window to be left where it is: enough to see it and drag it.
 */
export const GRAB_STRIP = { width: 120, height: 32 } as const;

/** The overlap of two rectangles (width or height 0 when they do not meet). */
function overlap(a: ScreenRect, b: ScreenRect): { width: number; height: number } {
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  return { width, height };
}

/** True when the window's title bar can be seen and grabbed on some display. */
export function isGrabbable(bounds: ScreenRect, displays: readonly DisplayArea[]): boolean {
  const strip: ScreenRect = {
    x: bounds.x,
    y: bounds.y,
    width: bounds.width,
    height: Math.min(GRAB_STRIP.height, bounds.height),
  };
  return displays.some((d) => {
    const o = overlap(strip, d.workArea);
    return o.width >= Math.min(GRAB_STRIP.width, bounds.width) && o.height >= strip.height;
  });
}

/** The display a window belongs on: the one it was saved on if still there, else the nearest to its centre, else the primary. */
function homeDisplay(
  bounds: ScreenRect,
  savedOn: string | null,
  displays: readonly DisplayArea[],
): DisplayArea | undefined {
  const saved = savedOn === null ? undefined : displays.find((d) => d.id === savedOn);
  if (saved) return saved;
  const cx = bounds.x + bounds.width / 2;
  const cy = bounds.y + bounds.height / 2;
  const distance = (d: DisplayArea): number => {
    const a = d.workArea;
    const dx = Math.max(a.x - cx, 0, cx - (a.x + a.width));
    const dy = Math.max(a.y - cy, 0, cy - (a.y + a.height));
    return dx * dx + dy * dy;
  };
  let best: DisplayArea | undefined;
  for (const d of displays) {
    if (!best || distance(d) < distance(best) || (distance(d) === distance(best) && d.primary && !best.primary))
      best = d;
  }
  return best ?? displays.find((d) => d.primary);
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), Math.max(lo, hi));

/** `bounds` moved (and shrunk if it must be) to lie wholly inside `area`. */
export function fitInside(bounds: ScreenRect, area: ScreenRect): ScreenRect {
  const width = Math.min(bounds.width, area.width);
  const height = Math.min(bounds.height, area.height);
  return {
    x: clamp(bounds.x, area.x, area.x + area.width - width),
    y: clamp(bounds.y, area.y, area.y + area.height - height),
    width,
    height,
  };
}

/**
 * Where a window saved at `bounds` on display `savedOn` goes now. A window whose title bar is
 * still on a display stays where it was (the trader may have put it half across two screens);
 * one whose display is gone, or that would open off every screen, is moved wholly onto its
 * display if that is still there, else the nearest one (a window saved on a removed display at
 * the far right lands at the right edge of the screen beside it). No display at all (a headless
 * shell): the saved bounds as they are.
 */
export function placeOnDisplays(
  bounds: ScreenRect,
  savedOn: string | null,
  displays: readonly DisplayArea[],
): Placement {
  if (displays.length === 0) return { bounds, display: savedOn };
  if (isGrabbable(bounds, displays)) return { bounds, display: displayOf(bounds, displays)?.id ?? savedOn };
  const home = homeDisplay(bounds, savedOn, displays);
  if (!home) return { bounds, display: savedOn };
  return { bounds: fitInside(bounds, home.workArea), display: home.id };
}

/** The display holding most of `bounds`, if any part of it is on one. */
export function displayOf(bounds: ScreenRect, displays: readonly DisplayArea[]): DisplayArea | undefined {
  let best: DisplayArea | undefined;
  let bestArea = 0;
  for (const d of displays) {
    const o = overlap(bounds, d.bounds);
    const area = o.width * o.height;
    if (area > bestArea) {
      best = d;
      bestArea = area;
    }
  }
  return best;
}

/** A new window's bounds: `size`, cascaded from `near` (the window it comes from), kept on that window's display. */
export function cascadeFrom(
  near: ScreenRect | null,
  size: { readonly width: number; readonly height: number },
  step: number,
  displays: readonly DisplayArea[],
): ScreenRect {
  const home = near ? (displayOf(near, displays) ?? displays.find((d) => d.primary)) : displays.find((d) => d.primary);
  const area = home?.workArea ?? { x: 0, y: 0, width: size.width, height: size.height };
  const origin = near ?? { x: area.x + 40, y: area.y + 40, width: size.width, height: size.height };
  return fitInside({ x: origin.x + step, y: origin.y + step, width: size.width, height: size.height }, area);
}
