/**
 * Time as the core sees it: injected, so tests can control it and the timeline uses one clock.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * The real clock. Sleeps keep the process alive on purpose: a backoff between resolution
 * rounds is work in progress, and a CLI that exited during it would abandon an intent.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const IST_OFFSET_MS = 330 * 60_000;
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/**
 * Formats epoch ms as ISO 8601 in exchange time with milliseconds: `2026-11-20T09:15:00.123+05:30`.
 *
 * The app's lifecycle hops are milliseconds apart, so unlike the broker's whole-second times
 * they keep the fraction; the offset matches the broker's (docs/api.md §Numbers and money units).
 */
export function isoIst(ms: number): string {
  const d = new Date(ms + IST_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}+05:30`
  );
}
