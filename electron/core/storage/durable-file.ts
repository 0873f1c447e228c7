import { open as openFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../wire/private-files';

/**
 * Writing a whole file so a crash leaves either the old one or the new one, never a mix
 * (docs/money-path.md §The intents ledger: its compaction; docs/journal.md
 * §Durability: the journal's database): the bytes go to a side file that is fsynced, renamed over
 * the old one, and the directory is fsynced so the rename itself survives a power cut.
 */

/** The steps of a replacement, for tests that stop a process at one. */
export type ReplaceStep = 'written' | 'renamed';

/** Replaces `path` with `bytes`, durably and atomically. */
export async function replaceFileDurably(
  path: string,
  bytes: Uint8Array | string,
  onStep: (step: ReplaceStep) => void = () => undefined,
): Promise<void> {
  const tmp = `${path}.tmp`;
  const out = await openFile(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    await writeAll(out, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    await out.sync();
  } finally {
    await out.close();
  }
  onStep('written');
  await rename(tmp, path);
  onStep('renamed');
  await fsyncDir(dirname(path));
}

/**
 * Writes every byte: one `write` may store fewer than it was given. (Not `FileHandle.writeFile`,
 * which bypasses the handle's `write`, where tests inject a disk that fills up half-way.)
 */
export async function writeAll(out: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) {
    const { bytesWritten } = await out.write(bytes, at, bytes.byteLength - at);
    // A write that stores nothing will store nothing next time either: a failure, not a loop.
    if (bytesWritten <= 0) throw Object.assign(new Error('ENOSPC: the disk took no bytes'), { code: 'ENOSPC' });
    at += bytesWritten;
  }
}

/** Makes a rename durable: on Linux the directory entry needs its own fsync. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | null = null;
  try {
    handle = await openFile(dir, 'r');
    await handle.sync();
  } catch {
    // Not supported on every platform (Windows); the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
