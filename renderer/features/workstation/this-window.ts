import { MAIN_WINDOW, WindowId } from '@shared/domain/workstation';

/**
 * Which window of the desk this page draws (docs/workstation.md §Windows): the page's URL names
 * it (`?window=w2`); a page without one, or with one that is not a window id, is the main window.
 */
export function windowFromSearch(search: string): WindowId {
  const named = new URLSearchParams(search).get('window');
  return named !== null && WindowId.safeParse(named).success ? named : MAIN_WINDOW;
}

/** This page's window, read once. */
export const THIS_WINDOW: WindowId = windowFromSearch(typeof window === 'undefined' ? '' : window.location.search);

/** True in the main window. */
export const IS_MAIN_WINDOW = THIS_WINDOW === MAIN_WINDOW;

/** The page URL of window `id`: this page's own address with `window=id` (the launch key is not in it: renderer/lib/bridge.ts). */
export function windowUrl(href: string, id: WindowId): string {
  const url = new URL(href);
  url.searchParams.set('window', id);
  return url.toString();
}

/** A window as the trader reads it: "main window", "window 2" (pop-out `w2`). */
export function windowName(id: WindowId): string {
  return id === MAIN_WINDOW ? 'main window' : `window ${id.slice(1)}`;
}
