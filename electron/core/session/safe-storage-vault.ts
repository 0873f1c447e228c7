import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../wire/private-files';
import type { SecretVault, VaultPersistence, VaultWrite } from './secret-vault';

/**
 * The part of Electron's `safeStorage` the vault uses. The Electron shell passes `safeStorage`
 * itself (electron/main/index.ts); tests pass a fake, so this module runs under plain Node.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?: () => string;
}

const SecretsFile = z.record(z.string(), z.string());

/**
 * A `SecretVault` whose persistent half is Electron `safeStorage` (docs/contract.md §The token never leaves main).
 *
 * Secrets live in memory; only those the user asked to remember are written, encrypted by the
 * OS (Keychain, DPAPI, libsecret/kwallet) as base64 ciphertext in `secrets.json`. It refuses
 * to persist — and says why — when encryption is unavailable, or on Linux when the selected
 * backend is `basic_text`, which only obfuscates with a hard-coded password: a secret on disk
 * that anyone can decrypt is worse than asking the user to log in again.
 * @see https://www.electronjs.org/docs/latest/api/safe-storage
 * @see https://www.electronjs.org/docs/latest/tutorial/security (secrets are not kept in plain text)
 */
export class SafeStorageVault implements SecretVault {
  readonly #storage: SafeStorageLike;
  readonly #file: string;
  readonly #platform: NodeJS.Platform;
  readonly #memory = new Map<string, string>();
  #persisted: Record<string, string> | null = null;

  public constructor(storage: SafeStorageLike, file: string, platform: NodeJS.Platform = process.platform) {
    this.#storage = storage;
    this.#file = file;
    this.#platform = platform;
  }

  public persistence(): VaultPersistence {
    if (!this.#storage.isEncryptionAvailable()) {
      return {
        available: false,
        reason:
          'The operating system offers no encryption for saved secrets, so Tradedesk will not save them; log in again after a restart.',
      };
    }
    if (this.#platform === 'linux') {
      const backend = this.#storage.getSelectedStorageBackend?.() ?? 'unknown';
      if (backend === 'basic_text' || backend === 'unknown') {
        return {
          available: false,
          reason: `No desktop keyring is available (backend "${backend}"), so saved secrets would not be truly encrypted; Tradedesk will not save them.`,
        };
      }
    }
    return { available: true, reason: null };
  }

  public async get(name: string): Promise<string | null> {
    const inMemory = this.#memory.get(name);
    if (inMemory !== undefined) return inMemory;
    if (!this.persistence().available) return null;
    const cipher = (await this.#load())[name];
    if (cipher === undefined) return null;
    try {
      const plain = this.#storage.decryptString(Buffer.from(cipher, 'base64'));
      this.#memory.set(name, plain);
      return plain;
    } catch {
      return null; // another user's or machine's ciphertext: as good as absent
    }
  }

  public async set(name: string, value: string, persist: boolean): Promise<VaultWrite> {
    this.#memory.set(name, value);
    if (!persist) return { persisted: false, reason: null };
    const can = this.persistence();
    if (!can.available) return { persisted: false, reason: can.reason };
    const all = { ...(await this.#load()), [name]: this.#storage.encryptString(value).toString('base64') };
    await this.#save(all);
    return { persisted: true, reason: null };
  }

  public async delete(name: string): Promise<void> {
    this.#memory.delete(name);
    const all = await this.#load();
    if (!(name in all)) return;
    const rest = Object.fromEntries(Object.entries(all).filter(([k]) => k !== name));
    await this.#save(rest);
  }

  public async wipe(): Promise<void> {
    this.#memory.clear();
    this.#persisted = {};
    await rm(this.#file, { force: true });
  }

  async #load(): Promise<Record<string, string>> {
    if (this.#persisted) return this.#persisted;
    try {
      const parsed = SecretsFile.safeParse(JSON.parse(await readFile(this.#file, 'utf8')));
      this.#persisted = parsed.success ? parsed.data : {};
    } catch {
      this.#persisted = {};
    }
    return this.#persisted;
  }

  async #save(all: Record<string, string>): Promise<void> {
    this.#persisted = all;
    await makePrivateDir(dirname(this.#file));
    const tmp = `${this.#file}.tmp`;
    await writeFile(tmp, JSON.stringify(all), { mode: PRIVATE_FILE_MODE });
    await rename(tmp, this.#file);
  }
}
