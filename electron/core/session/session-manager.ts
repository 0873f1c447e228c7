import type { Exchange } from '@shared/domain/instrument';
import type { SessionInfo, SessionVersion } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import type { AuthSource } from '../../broker/auth-source';
import type { Broker, Credentials } from '../../broker/broker';
import type { SecretVault, VaultWrite } from './secret-vault';
import { SessionVersions } from './session-versions';

/** Who the session is with, as shown to the user. */
export interface SessionTarget {
  readonly broker: SessionInfo['broker'];
  readonly label: string;
  /** Names this account's secrets in the vault (profile kind + URL + key, no secret). */
  readonly vaultKey: string;
  /** The `market_protection` this profile sends (Kite: docs/kite.md §Market protection); shown to the renderer. */
  readonly marketProtection?: number;
  /** Exchanges where the broker takes no IOC order through its API (from the broker registry); shown to the renderer. */
  readonly iocRefusedOn?: readonly Exchange[];
}

/** Callbacks for the bridge's `session.changed` / `session.expired` events. */
export interface SessionEvents {
  onChanged?(info: SessionInfo): void;
  /** `version` is the expired session's: the `onChanged` that follows carries the same. */
  onExpired?(reason: string, version: SessionVersion): void;
}

/**
 * The one holder of the broker token (docs/contract.md §The token never leaves main): logs in with the configured credentials,
 * hands the token to the transport per request, re-logs in once when a 401 says it went
 * stale, and wipes it at logout.
 *
 * The token never leaves this object except as a request header: `info()` is what the renderer
 * may see and carries no token. Concurrent 401s share one re-login. A re-login that fails, or
 * a 401 right after one, ends the session (`session.expired`), and nothing is retried until
 * the user logs in again.
 */
export class SessionManager implements AuthSource {
  readonly #target: SessionTarget;
  readonly #vault: SecretVault;
  readonly #events: SessionEvents;
  readonly #versions: SessionVersions;
  #broker: Broker | null = null;
  #credentials: Credentials | null = null;
  #token: string | null = null;
  #info: SessionInfo;
  #renewing: Promise<string | null> | null = null;
  #remember = false;
  /** Counts logouts, so a login that was on its way when one happened is not taken. */
  #logouts = 0;

  /**
   * `versions` numbers every change of `info()` (docs/session.md §Session facts are ordered
   * by main); the app passes the one it shares across the cores it swaps in.
   */
  public constructor(
    target: SessionTarget,
    vault: SecretVault,
    events: SessionEvents = {},
    versions: SessionVersions = new SessionVersions(),
  ) {
    this.#target = target;
    this.#vault = vault;
    this.#events = events;
    this.#versions = versions;
    this.#info = {
      state: 'disconnected',
      broker: target.broker,
      brokerLabel: target.label,
      userId: null,
      scope: null,
      expiresAt: null,
      version: versions.next(),
    };
  }

  /** Connects the manager to the broker it logs in to (which in turn reads tokens from here). */
  public attach(broker: Broker): void {
    this.#broker = broker;
  }

  /** What the renderer may know about the session. */
  public info(): SessionInfo {
    return this.#info;
  }

  public token(): string | null {
    return this.#token;
  }

  /**
   * Logs in and keeps the token in memory; with `remember`, also the secret and token in the
   * vault's persistent store — which may refuse (no OS encryption), as the result says.
   */
  public async login(credentials: Credentials, remember = false): Promise<VaultWrite> {
    this.#credentials = credentials;
    this.#remember = remember;
    await this.#loginNow();
    // A pasted Kite access token comes without a secret: then only the token is kept.
    const secret =
      credentials.apiSecret !== ''
        ? await this.#vault.set(`${this.#target.vaultKey}:secret`, credentials.apiSecret, remember)
        : null;
    const token =
      remember && this.#token !== null
        ? await this.#vault.set(`${this.#target.vaultKey}:token`, this.#token, true)
        : null;
    return secret ?? token ?? { persisted: false, reason: null };
  }

  public renew(stale: string): Promise<string | null> {
    if (this.#credentials === null || this.#info.state !== 'connected') return Promise.resolve(null);
    if (this.#token !== null && this.#token !== stale) return Promise.resolve(this.#token);
    this.#renewing ??= this.#loginNow()
      .then(
        () => this.#token,
        () => null,
      )
      .finally(() => {
        this.#renewing = null;
      });
    return this.#renewing;
  }

  public expired(reason: string): void {
    if (this.#info.state !== 'connected') return;
    this.#token = null;
    this.#info = { ...this.#info, state: 'expired', version: this.#versions.next() };
    void this.#vault.delete(`${this.#target.vaultKey}:token`);
    this.#events.onExpired?.(reason, this.#info.version);
    this.#events.onChanged?.(this.#info);
  }

  /** Ends the broker session (best effort) and wipes the token and secrets, memory and disk. */
  public async logout(): Promise<void> {
    this.#logouts += 1;
    // No re-login may start while the broker is being told: it would outlive the logout.
    this.#credentials = null;
    try {
      if (this.#token !== null) await this.#broker?.logout();
    } catch {
      // The token is forgotten either way; a broker that cannot be reached expires it itself.
    } finally {
      this.#token = null;
      this.#credentials = null;
      this.#info = {
        ...this.#info,
        state: 'disconnected',
        userId: null,
        scope: null,
        expiresAt: null,
        version: this.#versions.next(),
      };
      await this.#vault.wipe();
      this.#events.onChanged?.(this.#info);
    }
  }

  async #loginNow(): Promise<void> {
    if (!this.#broker || !this.#credentials)
      throw new AppError({ kind: 'internal', message: 'Session manager has no broker' });
    const logouts = this.#logouts;
    const grant = await this.#broker.login(this.#credentials);
    // A re-login that a 401 started just before the trader logged out (or main switched
    // profiles) answers after the logout: taking it would announce a session nobody holds.
    if (logouts !== this.#logouts) throw new AppError({ kind: 'unauthorized', message: 'Logged out while logging in' });
    this.#token = grant.accessToken;
    this.#info = {
      state: 'connected',
      broker: this.#target.broker,
      brokerLabel: this.#target.label,
      userId: grant.userId,
      scope: grant.scope,
      expiresAt: grant.expiresAt,
      version: this.#versions.next(),
      ...(this.#target.marketProtection !== undefined ? { marketProtection: this.#target.marketProtection } : {}),
      ...(grant.marketData !== undefined ? { marketData: grant.marketData } : {}),
      ...(this.#target.iocRefusedOn !== undefined ? { iocRefusedOn: [...this.#target.iocRefusedOn] } : {}),
    };
    if (this.#remember) await this.#vault.set(`${this.#target.vaultKey}:token`, grant.accessToken, true);
    this.#events.onChanged?.(this.#info);
  }
}
