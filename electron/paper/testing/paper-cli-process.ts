import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/*
 * Test-only: `npm run paper` as a real process (bundled by the test with `bundleForTest`), for
 * tests that need the broker to die (SIGKILL) and start again from its journal.
 */

/** A running paper broker process, its /v1 URL and (with `--control`) its control secret. */
export interface PaperProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly url: string;
  readonly controlSecret: string | null;
}

/** Starts the bundled CLI with `args` and resolves once it prints its READY line. */
export function startPaperProcess(cli: string, args: readonly string[]): Promise<PaperProcess> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
      const m = /^READY (http:\/\/127\.0\.0\.1:\d+\/v1)(?: control=(\S+))?\n/.exec(stdout);
      if (m) resolve({ child, url: m[1] as string, controlSecret: m[2] ?? null });
    });
    child.once('exit', (code) => reject(new Error(`paper exited ${code}: ${stderr}`)));
  });
}

/** Kills the process at once (no journal flush, no goodbye) and waits until it is gone. */
export function killNow(p: PaperProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}
