import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Electron binary if this machine has one, without triggering electron's download-on-first-
 * use (which `require('electron')` would do, and which fails offline).
 */
export function findElectronBinary(): string | null {
  const override = process.env.ELECTRON_BINARY;
  if (override) return existsSync(override) ? override : null;
  const pkg = join(process.cwd(), 'node_modules', 'electron');
  try {
    const rel = readFileSync(join(pkg, 'path.txt'), 'utf8').trim();
    const bin = join(pkg, 'dist', rel);
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
