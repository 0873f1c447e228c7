import type { Clock } from '../lib/use-now';

/** A clock a test moves by hand: `set`/`advance` notify every component reading it. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Sets the clock to `at` (epoch ms). */
  set(at: number): void;
}

/** Builds a manual clock starting at `start` (epoch ms). */
export function createManualClock(start: number): ManualClock {
  let now = start;
  const listeners = new Set<() => void>();
  const set = (at: number): void => {
    now = at;
    for (const l of listeners) l();
  };
  return {
    now: () => now,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set,
    advance: (ms) => set(now + ms),
  };
}
