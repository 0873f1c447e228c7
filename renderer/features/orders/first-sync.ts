import { getBridge } from '../../lib/bridge';

/** Rows of a full answer the first screen needs (a tall blotter shows ~40; sorted or filtered, more come soon after). */
export const FIRST_PAGE_ROWS = 200;

let early: Promise<unknown> | null = null;

/**
 * Sends the main window's first `orders.sync` as the page starts, before the app's code has
 * loaded: main answers it while the page compiles and renders the desk, instead of after
 * (docs/live-data.md §The first screen first). This module and what it imports carry no zod
 * and no React, so the call leaves with the bridge's open. Its reply is parsed against the
 * contract like every other, when the order list's first fetch takes it (`takeFirstSync`).
 */
export function sendFirstSync(): void {
  early ??= getBridge().invoke('orders.sync', { first: FIRST_PAGE_ROWS });
}

/**
 * The early first sync's raw reply, once: for the first fetch of a page whose book is empty, which
 * would send the same call. Null when there was none or it was taken.
 */
export function takeFirstSync(): Promise<unknown> | null {
  const taken = early;
  early = null;
  return taken;
}
