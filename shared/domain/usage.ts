import { z } from 'zod';

/**
 * How much of its broker's request budget the desk spends (docs/brokers.md §The request
 * meter): main counts every request it sends and publishes the rate with the broker's limit,
 * so the header can say "0.1 req/s of 10".
 */

/** A rate and a burst (requests per second; requests at once). */
export const RequestRate = z.object({
  perSecond: z.number().positive(),
  burst: z.number().int().positive(),
});
export type RequestRate = z.infer<typeof RequestRate>;

/** The desk's spending against one broker adapter's budget. */
export const BrokerUsage = z.object({
  /** The broker adapter's label ("Paper broker", a host name). */
  broker: z.string(),
  /** The window the figures cover, in ms. */
  windowMs: z.number().int().positive(),
  /** Requests sent to the broker within the window. */
  requests: z.number().int().nonnegative(),
  /** `requests` per second of the window. */
  perSecond: z.number().nonnegative(),
  /** The most requests sent within any one second of the window. */
  peakPerSecond: z.number().int().nonnegative(),
  /** What the broker allows for every request. */
  limit: RequestRate,
  /** `broker`: from the broker's own replies (RateLimit-Policy); `documented`: the adapter's documented default. */
  limitSource: z.enum(['broker', 'documented']),
  /** The pace the desk keeps itself to (its client-side bucket), or null when it keeps none. */
  pace: RequestRate.nullable(),
});
export type BrokerUsage = z.infer<typeof BrokerUsage>;
