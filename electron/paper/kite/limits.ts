import { toIstIso } from '@shared/lib/ist-time';
import { RateLimiter, type Take } from '../rate-limit';
import { KiteError } from './errors';

/**
 * Kite Connect's request limits (docs/kite.md §Limits). Per access token: quotes 1/s, historical
 * candles 3/s, everything else 10/s (token buckets). Orders — placement, modification and
 * cancellation — are counted per **account** in calendar windows, as Kite counts them since
 * April 2026: at most 10 in one calendar second, 400 in one calendar minute and 5,000 in one
 * (IST) day. Over a limit: HTTP 429 NetworkException "Too many requests" with Retry-After.
 */

/** Which of Kite's limits a route draws from. */
export type KiteLimit = 'quote' | 'historical' | 'orders' | 'default';

/** Every limit may be changed (tests raise or shrink them; `--kite-order-limits`); the defaults are Kite's. */
export interface KiteRates {
  readonly quotePerSecond: number;
  readonly historicalPerSecond: number;
  /** Orders in one calendar second (`hh:mm:ss.000`–`.999`), per account. */
  readonly ordersPerSecond: number;
  /** Orders in one calendar minute, per account. */
  readonly ordersPerMinute: number;
  /** Orders in one IST day, per account. */
  readonly ordersPerDay: number;
  readonly defaultPerSecond: number;
}

/** Kite's documented limits (docs/kite.md §Limits): the defaults. */
export const KITE_RATES: KiteRates = {
  quotePerSecond: 1,
  historicalPerSecond: 3,
  ordersPerSecond: 10,
  ordersPerMinute: 400,
  ordersPerDay: 5000,
  defaultPerSecond: 10,
};

/**
 * `10/s,400/min,5000/day` (`--kite-order-limits`): any of the three, in any order → the order
 * limits it names. Anything else throws an Error saying what is expected.
 */
export function parseOrderLimits(
  spec: string,
): Partial<Pick<KiteRates, 'ordersPerSecond' | 'ordersPerMinute' | 'ordersPerDay'>> {
  const out: { ordersPerSecond?: number; ordersPerMinute?: number; ordersPerDay?: number } = {};
  for (const part of spec.split(',')) {
    const m = /^\s*(\d{1,7})\/(s|min|day)\s*$/.exec(part);
    if (!m || Number(m[1]) < 1)
      throw new Error(`must look like 10/s,400/min,5000/day (each a whole number ≥ 1), not ${spec.slice(0, 60)}`);
    const n = Number(m[1]);
    if (m[2] === 's') out.ordersPerSecond = n;
    else if (m[2] === 'min') out.ordersPerMinute = n;
    else out.ordersPerDay = n;
  }
  return out;
}

/** One calendar window of a limit: its index (which second, minute or day) and its count. */
interface Window {
  at: string;
  used: number;
}

/** The order limits of one account: counts per calendar second, minute and IST day. */
class OrderWindows {
  readonly #windows = new Map<'second' | 'minute' | 'day', Window>();

  constructor(private readonly rates: KiteRates) {}

  /** Counts one order at `now`, or throws the 429 naming the first limit it would cross (nothing counted). */
  take(now: number): void {
    const ist = toIstIso(now);
    const checks = [
      { kind: 'second' as const, at: String(Math.floor(now / 1000)), max: this.rates.ordersPerSecond, per: '/s' },
      { kind: 'minute' as const, at: String(Math.floor(now / 60_000)), max: this.rates.ordersPerMinute, per: '/min' },
      { kind: 'day' as const, at: ist.slice(0, 10), max: this.rates.ordersPerDay, per: '/day' },
    ];
    for (const c of checks) {
      const w = this.#windows.get(c.kind);
      const used = w?.at === c.at ? w.used : 0;
      if (used < c.max) continue;
      const wait = retryAfterS(c.kind, now, ist);
      throw new KiteError(
        429,
        'NetworkException',
        `Too many requests: the orders limit is ${c.max}${c.per}; retry in ${wait} s`,
        { 'Retry-After': String(wait) },
      );
    }
    for (const c of checks) {
      const w = this.#windows.get(c.kind);
      this.#windows.set(c.kind, { at: c.at, used: (w?.at === c.at ? w.used : 0) + 1 });
    }
  }
}

/** Whole seconds until the window `kind` that holds `now` ends (≥ 1). */
function retryAfterS(kind: 'second' | 'minute' | 'day', now: number, ist: string): number {
  if (kind === 'second') return 1;
  if (kind === 'minute') return Math.max(1, Math.ceil((60_000 - (now % 60_000)) / 1000));
  const [h, m, s] = ist.slice(11, 19).split(':').map(Number) as [number, number, number];
  return Math.max(1, 86_400 - (h * 3600 + m * 60 + s));
}

/** The limiters of one broker. */
export class KiteLimits {
  private readonly buckets: Record<Exclude<KiteLimit, 'orders'>, RateLimiter>;
  private readonly orders = new Map<string, OrderWindows>();

  constructor(private readonly rates: KiteRates = KITE_RATES) {
    const perSecond = (name: string, n: number): RateLimiter => new RateLimiter(name, { perSecond: n, burst: n });
    this.buckets = {
      quote: perSecond('quote', rates.quotePerSecond),
      historical: perSecond('historical', rates.historicalPerSecond),
      default: perSecond('default', rates.defaultPerSecond),
    };
  }

  /**
   * Draws one request from `limit`: `key` is the caller (access token, or address before login)
   * for the per-token buckets, `account` the user the orders count against. Throws the 429
   * naming the limit.
   */
  take(limit: KiteLimit, key: string, account: string, now: number): void {
    if (limit === 'orders') {
      let w = this.orders.get(account);
      if (!w) this.orders.set(account, (w = new OrderWindows(this.rates)));
      w.take(now);
      return;
    }
    const l = this.buckets[limit];
    const t: Take = l.take(key, now);
    if (t.ok) return;
    throw new KiteError(
      429,
      'NetworkException',
      `Too many requests: the ${limit} limit is ${l.cfg.perSecond}/s; retry in ${t.retryAfterS} s`,
      { 'Retry-After': String(t.retryAfterS) },
    );
  }
}
