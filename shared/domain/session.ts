import { z } from 'zod';
import { brokerUrlProblem, BROKER_URL_HTTPS_REQUIRED } from './broker-url';
import { Exchange } from './instrument';

/** Kite Connect's API root, where a Kite profile without a `baseUrl` trades. */
export const KITE_API_ROOT = 'https://api.kite.trade';

/** Upstox's API root, where an Upstox profile without a `baseUrl` trades (docs/upstox.md §The adapter). */
export const UPSTOX_API_ROOT = 'https://api.upstox.com';

/** A broker URL: https, or plain http to loopback only (`broker-url.ts`): the secret and token travel here. */
const BrokerUrl = z
  .url({ protocol: /^https?$/ })
  .refine((url) => brokerUrlProblem(url) === null, { message: BROKER_URL_HTTPS_REQUIRED });

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

/** A Kite profile's settings that are not secrets (remembered with the profile). */
const KiteSettings = {
  /** Sent with MARKET and SL-M orders, on placement and modification (default -1, automatic). */
  marketProtection: MarketProtection.optional(),
  /**
   * Every call to Kite leaves over IPv4 (docs/kite.md §Static IP): on a dual-stack machine the
   * system may prefer a changing IPv6 address that Kite does not know, while the static IPv4 one
   * is registered.
   */
  ipv4Only: z.boolean().optional(),
};

/**
 * Where the app trades: the embedded paper broker (default, no account needed), a remote
 * broker speaking the REST dialect of docs/api.md, or Zerodha Kite Connect (docs/kite.md) —
 * with the app's API key and either its secret (the login page then redirects to main with a
 * request token: docs/session.md, "Kite login") or an access token the trader already has
 * for the day.
 *
 * Secrets travel renderer → main once, at login; main keeps them in its vault and never
 * sends them back.
 */
const ApiKey = z.string().min(1).max(256);
const Secret = z.string().min(1).max(256);

const PaperProfile = z.object({ kind: z.literal('paper') });
const RestProfile = z.object({
  kind: z.literal('rest'),
  /** https, or plain http to loopback only (`broker-url.ts`): the secret and token travel here. */
  baseUrl: BrokerUrl,
  apiKey: ApiKey,
  apiSecret: Secret,
});
const KiteProfile = z.object({
  kind: z.literal('kite'),
  /** Kite's API root (default `KITE_API_ROOT`); the paper broker's is `http://127.0.0.1:P/kite`. */
  baseUrl: BrokerUrl.optional(),
  apiKey: ApiKey,
  apiSecret: Secret.optional(),
  accessToken: Secret.optional(),
  ...KiteSettings,
});

/**
 * Upstox (docs/upstox.md §The adapter): the app's API key and secret (its login dialog's code is
 * exchanged with them), or an access token for the day.
 */
const UpstoxProfile = z.object({
  kind: z.literal('upstox'),
  /** Upstox's API root (default `UPSTOX_API_ROOT`); the paper broker's is `http://127.0.0.1:P/upstox`. */
  baseUrl: BrokerUrl.optional(),
  apiKey: ApiKey,
  apiSecret: Secret.optional(),
  accessToken: Secret.optional(),
});

export const BrokerProfile = z.discriminatedUnion('kind', [
  PaperProfile,
  RestProfile,
  KiteProfile.refine((p) => p.apiSecret !== undefined || p.accessToken !== undefined, {
    message: 'Kite needs the API secret (to log in) or an access token',
    path: ['apiSecret'],
  }),
  UpstoxProfile.refine((p) => p.apiSecret !== undefined || p.accessToken !== undefined, {
    message: 'Upstox needs the API secret (to log in) or an access token',
    path: ['apiSecret'],
  }),
]);
export type BrokerProfile = z.infer<typeof BrokerProfile>;

/** The kinds of broker a profile may name (each has its adapter in main's broker registry). */
export const BrokerKindName = z.enum(BrokerProfile.options.map((o) => o.shape.kind.value));

/** Any http(s) URL: a profile saved before the https rule is still read (and named), never connected to. */
const SavedUrl = z.url({ protocol: /^https?$/ });

/**
 * A profile as main saves it on disk: where and who, never a secret nor a token (those are the
 * vault's). Each kind of `BrokerProfile` is listed here again without its secrets: a new kind of
 * profile needs its line here too.
 */
export const StoredProfile = z.discriminatedUnion('kind', [
  PaperProfile,
  RestProfile.omit({ apiSecret: true }).extend({ baseUrl: SavedUrl }),
  KiteProfile.omit({ apiSecret: true, accessToken: true }).extend({ baseUrl: SavedUrl.optional() }),
  UpstoxProfile.omit({ apiSecret: true, accessToken: true }).extend({ baseUrl: SavedUrl.optional() }),
]);
export type StoredProfile = z.infer<typeof StoredProfile>;

/**
 * What a Kite login through Kite's page needs from the renderer: where, the app's API key and
 * its secret (sent once, kept in main's vault); the request token comes back to main itself.
 */
export const KiteLoginStart = z.strictObject({
  baseUrl: BrokerUrl.optional(),
  apiKey: z.string().min(1).max(256),
  apiSecret: z.string().min(1).max(256),
  ...KiteSettings,
});
export type KiteLoginStart = z.infer<typeof KiteLoginStart>;

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
