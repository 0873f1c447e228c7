import type { SessionInfo } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import type { AuthSource } from '../../broker/auth-source';
import type { Broker, Credentials } from '../../broker/broker';
import type { SecretVault, VaultWrite } from './secret-vault';

/** Who the session is with, as shown to the user. */
export interface SessionTarget {
  readonly broker: SessionInfo['broker'];
  readonly label: string;
  /** Names this account's secrets in the vault (profile kind + URL + key, no secret). */
  readonly vaultKey: string;
}

/** Callbacks for the bridge's `session.changed` / `session.expired` events. */
export interface SessionEvents {
  onChanged?(info: SessionInfo): void;
  onExpired?(reason: string): void;
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
  #broker: Broker | null = null;
  #credentials: Credentials | null = null;
  #token: string | null = null;
  #info: SessionInfo;
  #renewing: Promise<string | null> | null = null;
  #remember = false;

  public constructor(target: SessionTarget, vault: SecretVault, events: SessionEvents = {}) {
    this.#target = target;
    this.#vault = vault;
    this.#events = events;
    this.#info = {
      state: 'disconnected',
      broker: target.broker,
      brokerLabel: target.label,
      userId: null,
      scope: null,
      expiresAt: null,
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
    const secret = await this.#vault.set(`${this.#target.vaultKey}:secret`, credentials.apiSecret, remember);
    if (remember && this.#token !== null) await this.#vault.set(`${this.#target.vaultKey}:token`, this.#token, true);
    return secret;
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
    this.#info = { ...this.#info, state: 'expired' };
    void this.#vault.delete(`${this.#target.vaultKey}:token`);
    this.#events.onExpired?.(reason);
    this.#events.onChanged?.(this.#info);
  }

  /** Ends the broker session (best effort) and wipes the token and secrets, memory and disk. */
  public async logout(): Promise<void> {
    try {
      if (this.#token !== null) await this.#broker?.logout();
    } catch {
      // The token is forgotten either way; a broker that cannot be reached expires it itself.
    } finally {
      this.#token = null;
      this.#credentials = null;
      this.#info = { ...this.#info, state: 'disconnected', userId: null, scope: null, expiresAt: null };
      await this.#vault.wipe();
      this.#events.onChanged?.(this.#info);
    }
  }

  async #loginNow(): Promise<void> {
    if (!this.#broker || !this.#credentials)
      throw new AppError({ kind: 'internal', message: 'Session manager has no broker' });
    const grant = await this.#broker.login(this.#credentials);
    this.#token = grant.accessToken;
    this.#info = {
      state: 'connected',
      broker: this.#target.broker,
      brokerLabel: this.#target.label,
      userId: grant.userId,
      scope: grant.scope,
      expiresAt: grant.expiresAt,
    };
    if (this.#remember) await this.#vault.set(`${this.#target.vaultKey}:token`, grant.accessToken, true);
    this.#events.onChanged?.(this.#info);
  }
}
