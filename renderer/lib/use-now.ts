import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The time every "updated 3 s ago" label and every staleness rule reads, from one injectable clock.
 *
 * In the app it is one shared one-second ticker: a timer per panel would wake the page a dozen
 * times a second; one ticker shared through `useSyncExternalStore` wakes it once, and reading
 * the time in render stays pure. Tests provide their own clock (`ClockProvider`) and move it
 * by hand, so a rule like "stale after 15 s" is tested without waiting or racing a timer.
 */

/** A source of epoch-ms time that tells its listeners when it moves. */
export interface Clock {
  /** The current time (stable between notifications, as `useSyncExternalStore` requires). */
  now(): number;
  /** Calls `listener` whenever `now()` changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const listeners = new Set<() => void>();
let current = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

/** The app's clock: wall time, refreshed once a second while anything is listening. */
export const systemClock: Clock = {
  now: () => current,
  subscribe(listener) {
    listeners.add(listener);
    if (!timer) {
      current = Date.now();
      timer = setInterval(() => {
        current = Date.now();
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
  },
};

const ClockContext = createContext<Clock>(systemClock);

/** Gives the components below it another clock (tests; the app uses `systemClock`). */
export function ClockProvider(props: { readonly clock: Clock; readonly children?: ReactNode }) {
  return createElement(ClockContext.Provider, { value: props.clock }, props.children);
}

/** The clock in effect, for code that must stamp a moment (not only display the time). */
export function useClock(): Clock {
  return useContext(ClockContext);
}

/** Epoch ms from the clock in effect; the component re-renders whenever it moves. */
export function useNow(): number {
  const clock = useClock();
  return useSyncExternalStore(clock.subscribe, clock.now);
}
