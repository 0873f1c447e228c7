import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafeStorageVault, type SafeStorageLike } from './safe-storage-vault';

/** A stand-in for Electron's safeStorage: reversible "encryption" that is visibly not plain text. */
function fakeSafeStorage(available: boolean, backend = 'gnome_libsecret'): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().replace(/^enc:/, ''), 'hex').toString(),
    getSelectedStorageBackend: () => backend,
  };
}

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

describe('safeStorage vault', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-vault-'));
    file = join(dir, 'secrets.json');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('never writes a secret to disk when the OS cannot encrypt, and says why', async () => {
    const vault = new SafeStorageVault(fakeSafeStorage(false), file, 'darwin');
    const write = await vault.set('paper:token', 'TOKEN-123', true);
    expect(write.persisted).toBe(false);
    expect(write.reason).toMatch(/encryption/i);
    expect(await exists(file)).toBe(false);
    expect(await vault.get('paper:token')).toBe('TOKEN-123'); // still usable in memory
  });

  it('refuses the Linux basic_text backend (obfuscation, not encryption)', async () => {
    const vault = new SafeStorageVault(fakeSafeStorage(true, 'basic_text'), file, 'linux');
    expect(vault.persistence()).toMatchObject({ available: false });
    expect((await vault.set('paper:token', 'TOKEN-123', true)).persisted).toBe(false);
    expect(await exists(file)).toBe(false);
  });

  it('persists only when asked, only as ciphertext, and a new vault reads it back', async () => {
    const vault = new SafeStorageVault(fakeSafeStorage(true), file, 'linux');
    expect((await vault.set('memory-only', 'S1', false)).persisted).toBe(false);
    expect(await exists(file)).toBe(false);
    expect((await vault.set('rest-x:secret', 'S2', true)).persisted).toBe(true);
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk).not.toContain('S2');
    const again = new SafeStorageVault(fakeSafeStorage(true), file, 'linux');
    expect(await again.get('rest-x:secret')).toBe('S2');
    expect(await again.get('memory-only')).toBeNull();
  });

  it('logout wipes memory and disk', async () => {
    const vault = new SafeStorageVault(fakeSafeStorage(true), file, 'win32');
    await vault.set('paper:token', 'TOKEN-123', true);
    await vault.wipe();
    expect(await vault.get('paper:token')).toBeNull();
    expect(await exists(file)).toBe(false);
    expect(await new SafeStorageVault(fakeSafeStorage(true), file, 'win32').get('paper:token')).toBeNull();
  });
});
