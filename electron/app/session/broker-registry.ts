import type { Exchange } from '@shared/domain/instrument';
import { KITE_API_ROOT, UPSTOX_API_ROOT, type BrokerProfile } from '@shared/domain/session';
import type { BrokerAdapter } from '../../broker/adapter';
import type { Credentials } from '../../broker/broker';
import { kiteAdapter } from '../../broker/kite/kite-adapter';
import { restAdapter } from '../../broker/rest/rest-adapter';
import { upstoxAdapter } from '../../broker/upstox/upstox-adapter';

/** The embedded paper broker's fixed credentials (docs/api.md). */
export const PAPER_CREDENTIALS: Credentials = { apiKey: 'paper', apiSecret: 'paper' };

/** What a profile sets beyond where and who. */
export interface ProfileSettings {
  /** The `market_protection` its MARKET and SL-M orders carry, shown with the session (Kite: docs/kite.md §Market protection). */
  readonly marketProtection?: number;
  /** Every call leaves over IPv4 only (docs/kite.md §Static IP). */
  readonly ipv4Only?: boolean;
  /** Exchanges where the broker takes no IOC order through its API; the session tells the ticket (Kite: docs/kite.md §Smaller rules). */
  readonly iocRefusedOn?: readonly Exchange[];
}

/** What the command line says of a remote broker (`npm run host -- --broker NAME --broker-url URL …`). */
export interface CommandLineProfile {
  readonly brokerUrl: string;
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** A token for the day, for brokers that log in through their own page. */
  readonly accessToken?: string;
}

/** One kind of broker profile: the adapter it trades through, and what its profile means to it. */
export interface BrokerKind<P extends BrokerProfile> {
  /** The adapter, with the profile's own settings. */
  adapter(profile: P): BrokerAdapter;
  /** The profile's settings the session shows and the transport keeps, if the kind has any. */
  settings?(profile: P): ProfileSettings;
  /** The broker's root when the profile names none. */
  readonly defaultUrl?: string;
  /** The broker's name on screen, for a broker at `url`. */
  label(url: URL): string;
  /** What logging in sends; a login that came back through the broker's page brings `requestToken`. */
  credentials(profile: P, requestToken?: string): Credentials;
  /**
   * The profile `--broker <kind>` starts on (docs/session.md §Starting on a broker), for a kind
   * the command line may name; absent: it may not.
   */
  fromCommandLine?(c: CommandLineProfile): P;
}

/**
 * The broker registry (docs/brokers.md §Broker adapters): one entry per profile kind of
 * `BrokerProfile` (shared/domain/session.ts), which the mapped type makes compulsory. The core
 * receives the entry's adapter and never names one itself, so a new broker is its folder under
 * electron/broker/, its profile kind and its entry here.
 */
export const BROKERS: { readonly [K in BrokerProfile['kind']]: BrokerKind<Extract<BrokerProfile, { kind: K }>> } = {
  paper: { adapter: () => restAdapter, label: () => 'Paper broker', credentials: () => PAPER_CREDENTIALS },
  rest: {
    adapter: () => restAdapter,
    label: (url) => url.host,
    credentials: (p) => ({ apiKey: p.apiKey, apiSecret: p.apiSecret }),
    fromCommandLine: (c) => ({
      kind: 'rest',
      baseUrl: c.brokerUrl,
      apiKey: c.apiKey ?? 'paper',
      apiSecret: c.apiSecret ?? 'paper',
    }),
  },
  kite: {
    adapter: (p) => kiteAdapter({ marketProtection: kiteProtection(p) }),
    // Kite refuses MARKET and SL-M without market protection: automatic unless the profile says.
    settings: (p) => ({
      marketProtection: kiteProtection(p),
      iocRefusedOn: ['MCX'],
      ...(p.ipv4Only === true ? { ipv4Only: true } : {}),
    }),
    defaultUrl: KITE_API_ROOT,
    label: (url) => (url.href === new URL(KITE_API_ROOT).href ? 'Zerodha Kite' : `Kite (${url.host})`),
    credentials: (p, requestToken) => ({
      apiKey: p.apiKey,
      apiSecret: p.apiSecret ?? '',
      ...(p.accessToken !== undefined ? { accessToken: p.accessToken } : {}),
      ...(requestToken !== undefined ? { requestToken } : {}),
    }),
    // Without a token for the day, the trader logs in through Kite's page from the session dialog.
    fromCommandLine: (c) => ({
      kind: 'kite',
      baseUrl: c.brokerUrl,
      apiKey: c.apiKey ?? 'paper',
      ...(c.apiSecret !== undefined ? { apiSecret: c.apiSecret } : {}),
      ...(c.accessToken !== undefined ? { accessToken: c.accessToken } : {}),
    }),
  },
  upstox: {
    adapter: () => upstoxAdapter(),
    defaultUrl: UPSTOX_API_ROOT,
    label: (url) => (url.href === new URL(UPSTOX_API_ROOT).href ? 'Upstox' : `Upstox (${url.host})`),
    // A login through Upstox's dialog brings its authorization code (docs/upstox.md §The adapter).
    credentials: (p, code) => ({
      apiKey: p.apiKey,
      apiSecret: p.apiSecret ?? '',
      ...(p.accessToken !== undefined ? { accessToken: p.accessToken } : {}),
      ...(code !== undefined ? { requestToken: code } : {}),
    }),
    fromCommandLine: (c) => ({
      kind: 'upstox',
      baseUrl: c.brokerUrl,
      apiKey: c.apiKey ?? 'paper',
      ...(c.apiSecret !== undefined ? { apiSecret: c.apiSecret } : {}),
      ...(c.accessToken !== undefined ? { accessToken: c.accessToken } : {}),
    }),
  },
};

/** The broker kinds `--broker` may name, in the registry's order. */
export const COMMAND_LINE_BROKERS: readonly string[] = Object.entries(BROKERS)
  .filter(([, kind]) => kind.fromCommandLine !== undefined)
  .map(([name]) => name);

/** The registry's entry named `name` (a name from outside: the command line), if there is one. */
function entryNamed(name: string): BrokerKind<BrokerProfile> | undefined {
  const found = Object.entries(BROKERS).find(([kind]) => kind === name);
  return found?.[1] as BrokerKind<BrokerProfile> | undefined;
}

/** The profile `--broker name` starts on, or null when the registry has no such kind for the command line. */
export function commandLineProfile(name: string, c: CommandLineProfile): BrokerProfile | null {
  return entryNamed(name)?.fromCommandLine?.(c) ?? null;
}

/** The default API root of the broker kind `name`, if it has one (what `--broker-url` would be). */
export function defaultUrlOf(name: string): string | undefined {
  return entryNamed(name)?.defaultUrl;
}

/** A Kite profile's market protection: automatic (-1) unless it says (docs/kite.md §Market protection). */
function kiteProtection(p: Extract<BrokerProfile, { kind: 'kite' }>): number {
  return p.marketProtection ?? -1;
}

/** The registry entry of `profile`'s kind. */
export function brokerKind<P extends BrokerProfile>(profile: P): BrokerKind<P> {
  return BROKERS[profile.kind] as BrokerKind<P>;
}
