import type { Toast } from '../../state/toast-store';

/**
 * How the status bar's tray orders and ages toasts (docs/renderer.md §Notifications), without React.
 */

/** How long good and neutral news (a fill, a cancel) stays before it goes by itself. */
export const TOAST_MS = 6_000;

/** Milliseconds until a toast goes by itself, or null: a rejection stays until the trader dismisses it, a sticky one until its owner does. */
export function expiresAfter(t: Toast): number | null {
  return t.sticky || t.tone === 'bad' ? null : TOAST_MS;
}

/**
 * The tray: sticky toasts first, then the rest newest first. The first is shown in the status
 * bar; the others are collapsed behind "+N more", with the rejections among them counted.
 */
export function trayOf(toasts: readonly Toast[]): {
  readonly shown: Toast | null;
  readonly more: readonly Toast[];
  readonly moreRejected: number;
} {
  const ordered = [...toasts.filter((t) => t.sticky).reverse(), ...toasts.filter((t) => !t.sticky).reverse()];
  const [shown = null, ...more] = ordered;
  return { shown, more, moreRejected: more.filter((t) => t.tone === 'bad').length };
}
