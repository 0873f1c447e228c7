import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/**
 * The desk's data (intents, brackets, the paper broker's journal with its tokens, settings,
 * the vault) is the trader's alone (docs/architecture.md §Data on disk): files 0600, folders
 * 0700, whatever the umask. Windows ignores these bits; its per-user profile folder does the job.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` (and its parents) if missing, and makes `dir` itself private even if it existed. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

/** `makePrivateDir` for code that opens its files synchronously (the paper broker's journal). */
export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}
