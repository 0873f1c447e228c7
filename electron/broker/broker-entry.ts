import type { z } from 'zod';
import type { BrokerDescriptor } from '@shared/domain/broker-descriptor';
import type { Exchange } from '@shared/domain/instrument';
import type { BrokerAdapter } from './adapter';
import type { Credentials } from './broker';

/** What every profile of a remote broker may name: where (default: the kind's own root) and the app's key. */
export interface ProfileBase {
  readonly kind: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
}

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

/** The secrets main's vault kept for a remembered profile (docs/session.md §Remembered sessions). */
export interface RememberedSecrets {
  readonly apiSecret?: string;
  readonly accessToken?: string;
}

/**
 * A login through the broker's own page (RFC 8252 loopback redirect; docs/session.md §Login
 * through the broker's page): main opens `pageUrl`, listens on `callbackPath`, and takes the
 * one-time code the redirect brings for the session.
 */
export interface LoginPage<P> {
  /** The redirect's path on 127.0.0.1, as the broker app registers it (`/kite/callback`). */
  readonly callbackPath: string;
  /** The broker's login page for `profile`, carrying `state` back to `redirectUrl`. */
  pageUrl(profile: P, login: { readonly state: string; readonly redirectUrl: string }): string;
  /** The one-time code the redirect brought, or null when the broker says the login did not complete. */
  codeOf(query: URLSearchParams): string | null;
}

/**
 * One broker kind of the registry (docs/brokers.md §The broker registry): everything the app
 * needs of it, so a new broker is its folder under electron/broker/ and one line in
 * `BROKER_ENTRIES`. Its `Broker` (from `adapter`) carries its rate limits and placement traits.
 */
export interface BrokerEntry<P extends ProfileBase> {
  /** The descriptor the renderer draws the dialog and the ticket from (its `kind` is the profile's). */
  readonly describe: BrokerDescriptor;
  /** Judges a profile from outside (dialog, settings, command line): a refusal names the field. */
  readonly profile: z.ZodType<P>;
  /** The adapter, with the profile's own settings. */
  adapter(profile: P): BrokerAdapter;
  /** The profile's settings the session shows and the transport keeps, if the kind has any. */
  settings?(profile: P): ProfileSettings;
  /** The broker's root when the profile names none. */
  readonly defaultUrl?: string;
  /** The broker's name on screen, for a broker at `url`. */
  label(url: URL): string;
  /**
   * What logging in sends; a login that came back through the broker's page brings `requestToken`
   * and the `redirectUrl` it came back to (an OAuth code is exchanged with it: Upstox, docs/upstox.md §Login).
   */
  credentials(profile: P, requestToken?: string, redirectUrl?: string): Credentials;
  /**
   * The profile `--broker <kind>` starts on (docs/session.md §Starting on a broker), for a kind
   * the command line may name; absent: it may not.
   */
  fromCommandLine?(c: CommandLineProfile): P;
  /** The profile a remembered one logs in with, given what the vault kept; null: it needs the dialog. */
  remembered?(saved: P, secrets: RememberedSecrets): P | null;
  /** Present for a kind that logs in through its own page (`login-window`). */
  readonly loginPage?: LoginPage<P>;
}

/** Any registry entry, its profile type erased (the registry judges profiles by `profile` first). */
export type AnyBrokerEntry = BrokerEntry<ProfileBase>;

/** Declares an entry with its own profile type, checked here, and erased for the registry's list. */
export function brokerEntry<P extends ProfileBase>(entry: BrokerEntry<P>): AnyBrokerEntry {
  return entry as unknown as AnyBrokerEntry;
}
