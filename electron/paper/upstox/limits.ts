import { tooManyRequests } from './errors';

/**
 * Upstox's request limits (docs/upstox.md §Limits): counted per user and per API in three
 * windows — one second, one minute and thirty minutes. Order writes (place, modify, cancel)
 * 10 / 500 / 2,000; every other API 50 / 500 / 2,000. Over a limit: HTTP 429 UDAPI10005 with
 * **no Retry-After**: a client backs off by the published windows.
 */

/** Which of the limits a route draws from. */
export type UpstoxLimit = 'orders' | 'standard';

/** The counts of one limit in its three windows. */
export interface UpstoxWindows {
  readonly perSecond: number;
  readonly perMinute: number;
  readonly perHalfHour: number;
}

export interface UpstoxRates {
  readonly orders: UpstoxWindows;
  readonly standard: UpstoxWindows;
}

/** Upstox's published limits (docs/upstox.md §Limits): the defaults; tests raise or shrink them. */
export const UPSTOX_RATES: UpstoxRates = {
  orders: { perSecond: 10, perMinute: 500, perHalfHour: 2000 },
  standard: { perSecond: 50, perMinute: 500, perHalfHour: 2000 },
};

const SPANS = [
  ['perSecond', 1000],
  ['perMinute', 60_000],
  ['perHalfHour', 30 * 60_000],
] as const;

/** Counts per caller and limit in fixed windows (the window's index and its count). */
export class UpstoxLimits {
  private readonly used = new Map<string, { at: number; span: number; n: number }>();

  constructor(private readonly rates: UpstoxRates = UPSTOX_RATES) {}

  /** Counts one request of `limit` for `key` at `now`, or throws the 429 (nothing counted). */
  take(limit: UpstoxLimit, key: string, now: number): void {
    const w = this.rates[limit];
    const slots = SPANS.map(([name, span]) => {
      const id = `${limit}:${name}:${key}`;
      const at = Math.floor(now / span);
      const got = this.used.get(id);
      return { id, at, span, n: got?.at === at ? got.n : 0, max: w[name] };
    });
    if (slots.some((s) => s.n >= s.max)) throw tooManyRequests();
    for (const s of slots) this.used.set(s.id, { at: s.at, span: s.span, n: s.n + 1 });
    // Callers come and go (addresses before login): forget the windows that have ended.
    if (this.used.size > 10_000)
      for (const [id, v] of this.used) if (v.at < Math.floor(now / v.span)) this.used.delete(id);
  }
}
