import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A running browser host with its embedded paper broker (control interface on). */
export interface HostHandle {
  /** The page URL with the per-launch key: `http://127.0.0.1:P/?key=…`. */
  readonly url: string;
  readonly origin: string;
  readonly key: string;
  /** The embedded paper broker, for the control interface: `http://127.0.0.1:Q/v1`. */
  readonly paperUrl: string;
  readonly dataDir: string;
}

/** Starts `out/host.mjs` (built by `npm run build`) and waits for its READY line. */
export async function startHost(
  extraArgs: readonly string[] = [],
): Promise<{ handle: HostHandle; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradedesk-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/host.mjs', '--port', '0', '--paper-control', '--data-dir', dataDir, ...extraArgs],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  let paperUrl = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('host did not print READY within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`host exited with ${code} before READY`)));
    lines.on('line', (line) => {
      if (line.startsWith('PAPER ')) paperUrl = line.slice(6).trim();
      if (line.startsWith('READY ')) {
        clearTimeout(timer);
        resolve(line.slice(6).trim());
      }
    });
  });
  const u = new URL(url);
  return {
    handle: { url, origin: u.origin, key: u.searchParams.get('key') ?? '', paperUrl, dataDir },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Tests share one host per worker; a spec that needs a fresh one calls `startHost` itself. */
export const test = base.extend<object, { host: HostHandle }>({
  host: [
    async ({}, use) => {
      const { handle, stop } = await startHost();
      await use(handle);
      await stop();
    },
    { scope: 'worker' },
  ],
});

export { expect };
