import { z } from 'zod';
import { brokerUrlProblem, BROKER_URL_HTTPS_REQUIRED } from './broker-url';
import { BrokerKindName, BrokerProfile } from './broker-descriptor';
import { Exchange } from './instrument';

/** A broker URL: https, or plain http to loopback only (`broker-url.ts`): the secret and token travel here. */
export const BrokerUrl = z
  .url({ protocol: /^https?$/ })
  .refine((url) => brokerUrlProblem(url) === null, { message: BROKER_URL_HTTPS_REQUIRED });

/** Any http(s) URL: a profile saved before the https rule is still read (and named), never connected to. */
export const SavedUrl = z.url({ protocol: /^https?$/ });

/**
 * The `market_protection` a Kite profile sends with MARKET and SL-M orders (docs/kite.md §Market
 * protection): -1 for Kite's automatic percentage, or a percentage above 0 and up to 100 (two
 * decimals at most). Kite refuses those orders without it.
 */
export const MarketProtection = z
  .number()
  .refine((v) => v === -1 || (v > 0 && v <= 100 && Math.round(v * 100) === v * 100), {
    message: 'Market protection is automatic (-1) or a percentage above 0 and up to 100, two decimals at most',
  });
export type MarketProtection = z.infer<typeof MarketProtection>;

/**
 * Where the app trades is a `BrokerProfile` (broker-descriptor.ts): a kind from main's broker
 * registry and the values of that kind's fields, judged by the kind's own schema in main.
 * Secrets travel renderer → main once, at login; main keeps them in its vault and never sends
 * them back.
 */
export { BrokerKindName, BrokerProfile } from './broker-descriptor';

/**
 * A profile as main saves it on disk: where and who, never a secret nor a token (main drops the
 * fields its registry marks `secret` before saving; docs/session.md §Profiles).
 */
export const StoredProfile = BrokerProfile;
export type StoredProfile = BrokerProfile;

/**
 * Where a session fact stands in the order main made it (docs/session.md §Session facts are
 * ordered by main). Pushed events and call replies travel separately and may arrive in either
 * order; the renderer keeps the later fact by this, not by arrival.
 */
export const SessionVersion = z.object({
  /** One run of the Tradedesk service (random per start): a restarted service counts afresh. */
  run: z.string().min(1).max(64),
  /** Goes up by one with every change of the session in that run (login, re-login, expiry, logout). */
  seq: z.number().int().nonnegative(),
});
export type SessionVersion = z.infer<typeof SessionVersion>;

/**
 * True when `a` was made before `b` by the same run of main. A fact from another run is never
 * older: the renderer talks to one run at a time, so a new run's facts are the newest it has.
 */
export function isOlderSession(a: SessionVersion, b: SessionVersion): boolean {
  return a.run === b.run && a.seq < b.seq;
}

/** What the renderer may know about the session: never the token or the secret. */
export const SessionInfo = z.object({
  state: z.enum(['connected', 'disconnected', 'expired']),
  broker: BrokerKindName,
  /** Human label of the broker, e.g. "Paper broker" or the REST host name. */
  brokerLabel: z.string(),
  userId: z.string().nullable(),
  scope: z.enum(['trade', 'read']).nullable(),
  expiresAt: z.string().nullable(),
  version: SessionVersion,
  /** The `market_protection` this session sends with MARKET and SL-M orders; absent where the broker takes none (docs/kite.md §Market protection). */
  marketProtection: MarketProtection.optional(),
  /**
   * `none`: the broker account's plan has no market data (Kite's personal plan: docs/kite.md §The
   * plan) — no prices, candles or ticker; orders and the account are polled. Absent: market data as usual.
   */
  marketData: z.enum(['live', 'none']).optional(),
  /**
   * Exchanges where this broker takes no IOC order through its API (Kite: MCX, docs/kite.md
   * §Smaller rules), from the broker registry; the ticket says so before sending. Absent: none.
   */
  iocRefusedOn: z.array(Exchange).max(Exchange.options.length).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** The link to the broker as the main process sees it. */
export const ConnectionState = z.object({
  rest: z.enum(['up', 'degraded', 'down']),
  stream: z.enum(['open', 'connecting', 'closed']),
  detail: z.string().nullable(),
});
export type ConnectionState = z.infer<typeof ConnectionState>;
