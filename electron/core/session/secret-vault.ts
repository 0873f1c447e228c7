/** Whether a vault can keep secrets across restarts, and if not, why (shown to the user). */
export interface VaultPersistence {
  readonly available: boolean;
  readonly reason: string | null;
}

/** The outcome of storing a secret: kept in memory always, on disk only when possible and asked. */
export interface VaultWrite {
  readonly persisted: boolean;
  readonly reason: string | null;
}

/**
 * Where secrets (broker API secret, session token) live in the main process.
 *
 * Memory first; on disk only when the user asks ("remember me") *and* the OS can encrypt it
 * (Electron `safeStorage` over the keychain / DPAPI / libsecret). A vault that cannot encrypt
 * refuses to persist and says why, rather than writing a secret in the clear (docs/contract.md §The token never leaves main).
 */
export interface SecretVault {
  persistence(): VaultPersistence;
  get(name: string): Promise<string | null>;
  set(name: string, value: string, persist: boolean): Promise<VaultWrite>;
  delete(name: string): Promise<void>;
  /** Forgets every secret, in memory and on disk (logout). */
  wipe(): Promise<void>;
}

/**
 * A vault that never touches the disk: for the browser host, the bench and tests.
 */
export class MemoryVault implements SecretVault {
  readonly #secrets = new Map<string, string>();

  public persistence(): VaultPersistence {
    return { available: false, reason: 'This host keeps secrets in memory only; they are forgotten when it stops.' };
  }

  public async get(name: string): Promise<string | null> {
    return this.#secrets.get(name) ?? null;
  }

  public async set(name: string, value: string, persist: boolean): Promise<VaultWrite> {
    this.#secrets.set(name, value);
    return { persisted: false, reason: persist ? this.persistence().reason : null };
  }

  public async delete(name: string): Promise<void> {
    this.#secrets.delete(name);
  }

  public async wipe(): Promise<void> {
    this.#secrets.clear();
  }
}
