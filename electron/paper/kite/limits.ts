import { RateLimiter, type Take } from '../rate-limit';
import { KiteError } from './errors';

/**
 * Kite Connect's documented request limits (docs/kite.md §Limits), per access token: quotes
 * 1/s, historical candles 3/s, order placement/modification/cancellation 10/s and 400/min,
 * everything else 10/s. Over a limit: HTTP 429 NetworkException "Too many requests".
 */

/** Which of Kite's limits a route draws from. */
export type KiteLimit = 'quote' | 'historical' | 'orders' | 'default';

/** Every per-second limit may be scaled (tests raise them); the defaults are Kite's. */
export interface KiteRates {
  readonly quotePerSecond: number;
  readonly historicalPerSecond: number;
  readonly ordersPerSecond: number;
  readonly ordersPerMinute: number;
  readonly defaultPerSecond: number;
}

/** Kite's documented limits (docs/kite.md §Limits): the defaults. */
export const KITE_RATES: KiteRates = {
  quotePerSecond: 1,
  historicalPerSecond: 3,
  ordersPerSecond: 10,
  ordersPerMinute: 400,
  defaultPerSecond: 10,
};

/** The limiters of one broker. */
export class KiteLimits {
  private readonly buckets: Record<KiteLimit, RateLimiter[]>;

  constructor(r: KiteRates = KITE_RATES) {
    const perSecond = (name: string, n: number): RateLimiter => new RateLimiter(name, { perSecond: n, burst: n });
    this.buckets = {
      quote: [perSecond('quote', r.quotePerSecond)],
      historical: [perSecond('historical', r.historicalPerSecond)],
      orders: [
        perSecond('orders', r.ordersPerSecond),
        new RateLimiter('orders_minute', { perSecond: r.ordersPerMinute / 60, burst: r.ordersPerMinute }),
      ],
      default: [perSecond('default', r.defaultPerSecond)],
    };
  }

  /** Draws one request of `key` from `limit`'s buckets, or throws the 429 naming it. */
  take(limit: KiteLimit, key: string, now: number): void {
    const takes: Array<[RateLimiter, Take]> = this.buckets[limit].map((l) => [l, l.take(key, now)]);
    const refused = takes.find(([, t]) => !t.ok);
    if (!refused) return;
    const wait = Math.max(...takes.map(([, t]) => t.retryAfterS));
    const [l] = refused;
    const per = l.name === 'orders_minute' ? `${l.cfg.burst}/min` : `${l.cfg.perSecond}/s`;
    throw new KiteError(
      429,
      'NetworkException',
      `Too many requests: the ${limit} limit is ${per}; retry in ${wait} s`,
      {
        'Retry-After': String(wait),
      },
    );
  }
}
