import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { API_SECRET, readSecret, SecretInputError } from './secret-input';

const dir = mkdtempSync(join(tmpdir(), 'secret-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const from = (file: string | undefined, env: NodeJS.ProcessEnv = {}, stdin = '') => ({
  file,
  env,
  stdin: Readable.from([stdin]),
  platform: 'linux' as const,
});

function secretFile(name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('a secret for a command line', () => {
  it('comes from the environment variable when no file is named', async () => {
    expect(await readSecret(API_SECRET, from(undefined, { TRADEDESK_API_SECRET: 's3cret' }))).toBe('s3cret');
    expect(await readSecret(API_SECRET, from(undefined))).toBeUndefined();
  });

  it('comes from a 0600 (or 0400) file, without its line end, before the environment', async () => {
    const path = secretFile('ok', 's3cret\n', 0o600);
    expect(await readSecret(API_SECRET, from(path, { TRADEDESK_API_SECRET: 'other' }))).toBe('s3cret');
    expect(await readSecret(API_SECRET, from(secretFile('ro', 'r0\r\n', 0o400)))).toBe('r0');
  });

  it('comes from stdin with -', async () => {
    expect(await readSecret(API_SECRET, from('-', {}, 'piped\n'))).toBe('piped');
  });

  it.each([0o644, 0o640, 0o604])('refuses a file of mode %o, naming the file and the fix', async (mode) => {
    const path = secretFile(`m${mode.toString(8)}`, 's3cret', mode);
    const read = readSecret(API_SECRET, from(path));
    await expect(read).rejects.toThrow(SecretInputError);
    await expect(read).rejects.toThrow(`--api-secret-file ${path}: mode 0${mode.toString(8)} lets other users read it`);
  });

  it('refuses a missing or empty file, naming it', async () => {
    await expect(readSecret(API_SECRET, from(join(dir, 'none')))).rejects.toThrow(
      `--api-secret-file ${join(dir, 'none')}: ENOENT`,
    );
    const empty = secretFile('empty', '\n', 0o600);
    await expect(readSecret(API_SECRET, from(empty))).rejects.toThrow(`--api-secret-file ${empty}: empty`);
  });
});
