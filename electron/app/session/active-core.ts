import type { StreamMode } from '@shared/domain/market';
import type { BrokerProfile, ConnectionState, SessionInfo } from '@shared/domain/session';
import { SessionVersions } from '../../core/session/session-versions';
import type { BrokerUsage } from '@shared/domain/usage';
import type { CoreSeams } from '../../core/core-seams';
import { TradingCore, type TradingCoreOptions } from '../../core/trading-core';
import { AppError } from '@shared/ipc/app-error';
import { resolveProfile } from './profile-target';
import type { BrokerRegistry } from './broker-registry';

/** What the app needs to build a core for a profile. */
export interface CoreFactory {
  /** The broker kinds a profile may name, each with its adapter. */
  readonly brokers: BrokerRegistry;
  /** The embedded paper broker's URL, starting it on first use. */
  paperUrl(): Promise<string>;
  /** Everything but the profile-specific parts. */
  options(): Omit<TradingCoreOptions, 'baseUrl' | 'adapter' | 'target' | 'credentials' | 'sessionVersions'>;
  /** Tests' seams of every core (`AppConfig.core`); none in the app. */
  readonly seams?: CoreSeams;
  /** Where to say that "remember me" could not be honoured (no OS encryption). */
  notice(message: string): void;
  /** Readies a new core before it logs in (the profile's stored risk limits). */
  prepare?(core: TradingCore): Promise<void>;
}

/**
 * The one trading core in use, swapped when the user logs in to another profile.
 *
 * Handlers ask it for the current core; with nobody logged in they get `unauthorized`, which
 * the renderer turns into the login screen. Logins are serialised so two clicks cannot build
 * two cores that both reconcile the same ledger.
 *
 * Every session it reports — its cores' and its own "nobody logged in" — is numbered by one
 * counter, so the old session's last fact is older than the new one's first
 * (docs/session.md §Session facts are ordered by main).
 */
export class ActiveCore {
  readonly #factory: CoreFactory;
  readonly #versions: SessionVersions;
  #core: TradingCore | null = null;
  #info: SessionInfo;
  #queue: Promise<unknown> = Promise.resolve();
  #subscriptions: ReadonlySet<number> = new Set();
  #modes: ReadonlyMap<number, StreamMode> = new Map();

  public constructor(factory: CoreFactory, versions: SessionVersions = new SessionVersions()) {
    this.#factory = factory;
    this.#versions = versions;
    this.#info = {
      state: 'disconnected',
      broker: 'paper',
      brokerLabel: 'Paper broker',
      userId: null,
      scope: null,
      expiresAt: null,
      version: versions.next(),
    };
  }

  /** The logged-in core, or `unauthorized`. */
  public current(): TradingCore {
    const core = this.#core;
    if (!core || core.session.info().state === 'disconnected') {
      throw new AppError({ kind: 'unauthorized', message: 'Not logged in to a broker' });
    }
    return core;
  }

  public info(): SessionInfo {
    return this.#core?.session.info() ?? this.#info;
  }

  /** The request meter of the logged-in core, or null. */
  public usage(): BrokerUsage | null {
    return this.#core?.usage() ?? null;
  }

  public connection(): ConnectionState {
    return this.#core?.connection() ?? { rest: 'down', stream: 'closed', detail: 'Not logged in' };
  }

  /**
   * Logs in to `profile` (replacing any other session); a login that came back through the
   * broker's page brings its `requestToken` and the `redirectUrl` it was issued for.
   */
  public login(
    profile: BrokerProfile,
    remember = false,
    requestToken?: string,
    redirectUrl?: string,
  ): Promise<SessionInfo> {
    return this.#serial(async () => {
      // Judged before the current session ends: a profile its kind refuses changes nothing.
      const judged = this.#factory.brokers.judge(profile);
      await this.#closeCurrent(true);
      const baseUrl = profile.kind === 'paper' ? await this.#factory.paperUrl() : null;
      const resolved = resolveProfile(judged, baseUrl, requestToken, redirectUrl);
      const core = await TradingCore.create(
        { ...this.#factory.options(), ...resolved, sessionVersions: this.#versions },
        this.#factory.seams,
      );
      try {
        await this.#factory.prepare?.(core);
        // The core serves from the moment its session says connected, inside `start`: the page
        // refetches everything when that push arrives (docs/session.md §A new session
        // re-asks every read), which may be before the login's own reply.
        this.#core = core;
        core.setSubscriptions(this.#subscriptions, this.#modes);
        const write = await core.start(remember);
        if (remember && !write.persisted && write.reason) this.#factory.notice(write.reason);
      } catch (err) {
        this.#core = null;
        this.#info = { ...core.session.info(), state: 'disconnected', version: this.#versions.next() };
        await core.close();
        throw err;
      }
      return core.session.info();
    });
  }

  /** Sets the instruments the stream should deliver (and modes other than `quote`), now and after any later login. */
  public subscribe(tokens: ReadonlySet<number>, modes: ReadonlyMap<number, StreamMode> = new Map()): void {
    this.#subscriptions = tokens;
    this.#modes = modes;
    this.#core?.setSubscriptions(tokens, modes);
  }

  /** Logs out and wipes the token. */
  public logout(): Promise<SessionInfo> {
    return this.#serial(async () => {
      await this.#closeCurrent(true);
      return this.#info;
    });
  }

  /** Stops the core without logging out (app quit: a remembered session survives). */
  public close(): Promise<void> {
    return this.#serial(() => this.#closeCurrent(false));
  }

  async #closeCurrent(logout: boolean): Promise<void> {
    const core = this.#core;
    this.#core = null;
    if (!core) return;
    this.#info = this.#loggedOut(core);
    try {
      if (logout) await core.logout();
    } finally {
      // Numbered after the logout's own `session.changed`, which it repeats.
      this.#info = this.#loggedOut(core);
      await core.close();
    }
  }

  /** "Nobody logged in" to `core`'s broker, numbered now. */
  #loggedOut(core: TradingCore): SessionInfo {
    return {
      ...core.session.info(),
      state: 'disconnected',
      userId: null,
      scope: null,
      expiresAt: null,
      version: this.#versions.next(),
    };
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
