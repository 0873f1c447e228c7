import { useSyncExternalStore } from 'react';

/**
 * One shared one-second clock for every "updated 3 s ago" label.
 *
 * A timer per panel would wake the page a dozen times a second; one ticker shared through
 * `useSyncExternalStore` wakes it once, and reading the time in render stays pure.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Epoch ms, refreshed once a second while anything is listening. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
