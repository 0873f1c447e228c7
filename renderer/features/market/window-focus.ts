import { useSyncExternalStore } from 'react';

/**
 * Whether this window has the keyboard focus, from its `focus` and `blur` events. A window is
 * taken as focused until it hears otherwise, so the window a trader works in is never slowed by
 * a guess (docs/live-data.md §Windows not focused).
 */
let focused = true;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (next === focused) return;
  focused = next;
  for (const l of [...listeners]) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('focus', () => set(true));
  window.addEventListener('blur', () => set(false));
}

export function windowFocused(): boolean {
  return focused;
}

/** Calls `listener` when the window gains or loses the focus; returns the unsubscribe. */
export function subscribeWindowFocus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The window's focus, re-rendering when it changes. */
export function useWindowFocused(): boolean {
  return useSyncExternalStore(subscribeWindowFocus, windowFocused);
}
