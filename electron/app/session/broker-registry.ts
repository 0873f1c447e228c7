import type { BrokerDescriptor } from '@shared/domain/broker-descriptor';
import type { BrokerProfile, StoredProfile } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import type { AnyBrokerEntry, CommandLineProfile, ProfileBase, RememberedSecrets } from '../../broker/broker-entry';
import { kiteEntry } from '../../broker/kite/kite-entry';
import { paperEntry, restEntry } from '../../broker/rest/rest-entry';
import { upstoxEntry } from '../../broker/upstox/upstox-entry';

export { PAPER_CREDENTIALS } from '../../broker/rest/rest-entry';
export type { CommandLineProfile, ProfileSettings } from '../../broker/broker-entry';

/**
 * The brokers the app ships (docs/brokers.md §The broker registry), in the dialog's order: a new
 * broker is its folder under electron/broker/ with its `brokerEntry(…)`, and one line here.
 */
export const BROKER_ENTRIES: readonly AnyBrokerEntry[] = [paperEntry, restEntry, kiteEntry, upstoxEntry];

/** A profile judged by its kind's schema, with the entry that judged it. */
export interface JudgedProfile {
  readonly entry: AnyBrokerEntry;
  readonly profile: ProfileBase;
}

/**
 * The broker kinds the app knows, each with its entry: the core receives an entry's adapter and
 * never names one itself; the renderer receives the descriptors as data; the command line the
 * names. The app takes one (tests add a fake broker to the shipped ones).
 */
export class BrokerRegistry {
  readonly #entries: ReadonlyMap<string, AnyBrokerEntry>;

  public constructor(entries: readonly AnyBrokerEntry[] = BROKER_ENTRIES) {
    const map = new Map<string, AnyBrokerEntry>();
    for (const e of entries) {
      if (map.has(e.describe.kind)) throw new Error(`two broker entries of kind ${e.describe.kind}`);
      map.set(e.describe.kind, e);
    }
    this.#entries = map;
  }

  /** What the renderer draws the session dialog and the ticket from, in the registry's order. */
  public descriptors(): BrokerDescriptor[] {
    return [...this.#entries.values()].map((e) => e.describe);
  }

  /** The loopback paths the kinds' login pages redirect to. */
  public callbackPaths(): string[] {
    return [...this.#entries.values()].flatMap((e) => (e.loginPage ? [e.loginPage.callbackPath] : []));
  }

  /** The kinds `--broker` may name, in the registry's order. */
  public commandLineNames(): string[] {
    return [...this.#entries.values()].filter((e) => e.fromCommandLine !== undefined).map((e) => e.describe.kind);
  }

  /** The entry of kind `name` (a name from outside: the command line, a saved profile), if there is one. */
  public entry(name: string): AnyBrokerEntry | undefined {
    return this.#entries.get(name);
  }

  /**
   * Judges a profile from outside by its kind's schema: an unknown kind, or a field the kind
   * refuses, is a `bad_request` naming `profile.<field>` (nothing is sent anywhere).
   */
  public judge(profile: BrokerProfile): JudgedProfile {
    const entry = this.#entries.get(profile.kind);
    if (!entry)
      throw new AppError({
        kind: 'bad_request',
        message: `No broker of kind "${profile.kind}" (known: ${[...this.#entries.keys()].join(', ')})`,
        field: 'profile.kind',
      });
    const parsed = entry.profile.safeParse(profile);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = ['profile', ...(issue?.path ?? []).map(String)].join('.');
      throw new AppError({ kind: 'bad_request', message: issue?.message ?? 'Invalid profile', field });
    }
    return { entry, profile: parsed.data };
  }

  /** The profile `--broker name` starts on, or null when the registry has no such kind for the command line. */
  public commandLineProfile(name: string, c: CommandLineProfile): BrokerProfile | null {
    return (this.entry(name)?.fromCommandLine?.(c) as BrokerProfile | undefined) ?? null;
  }

  /** The default API root of the broker kind `name`, if it has one (what `--broker-url` would be). */
  public defaultUrlOf(name: string): string | undefined {
    return this.entry(name)?.defaultUrl;
  }

  /**
   * Why `--broker name` cannot start as given (docs/session.md §Starting on a broker), or null:
   * a kind the command line may not name, or one other than `rest` without `--broker-url` (the
   * embedded paper broker speaks the default kind only).
   */
  public commandLineProblem(name: string, brokerUrl: string | undefined): string | null {
    const names = this.commandLineNames();
    if (!names.includes(name)) return `--broker must be one of ${names.join(', ')}, got "${name.slice(0, 40)}"`;
    if (name !== 'rest' && brokerUrl === undefined) {
      const root = this.defaultUrlOf(name);
      return `--broker ${name} needs --broker-url (${root ?? 'its API root'}, or the paper broker's dialect)`;
    }
    return null;
  }

  /** A profile as saved on disk: the fields its kind marks `secret` dropped (they are the vault's). */
  public stored(profile: BrokerProfile): StoredProfile {
    const secret = new Set(
      this.entry(profile.kind)
        ?.describe.fields.filter((f) => f.kind === 'secret')
        .map((f) => f.name) ?? [],
    );
    return Object.fromEntries(Object.entries(profile).filter(([k]) => !secret.has(k))) as StoredProfile;
  }

  /** The profile a saved one logs in with, given what the vault kept; null: it needs the dialog. */
  public remembered(saved: StoredProfile, secrets: RememberedSecrets): BrokerProfile | null {
    const entry = this.entry(saved.kind);
    return (entry?.remembered?.(saved as ProfileBase, secrets) as BrokerProfile | null | undefined) ?? null;
  }
}

/** The registry of the brokers the app ships. */
export const BROKERS = new BrokerRegistry();

/** The broker kinds `--broker` may name, in the registry's order. */
export const COMMAND_LINE_BROKERS: readonly string[] = BROKERS.commandLineNames();
