import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Starting the browser host (`out/host.mjs`, built by `npm run build`) as its own process, for
 * the e2e specs and the dashboard benchmark alike. Plain Node: no Playwright test runner here, so
 * the bench can bundle it. Run from the repository root, as `npm test` and `npm run bench` do.
 */

/** A running browser host with its embedded paper broker (control interface on). */
export interface HostHandle {
  /** The page URL with the per-launch key: `http://127.0.0.1:P/?key=…`. */
  readonly url: string;
  readonly origin: string;
  readonly key: string;
  /** The embedded paper broker, for the control interface: `http://127.0.0.1:Q/v1`. */
  readonly paperUrl: string;
  /** The paper broker's control secret, sent in `X-Paper-Control` (docs/api.md §Control interface). */
  readonly paperControl: string;
  readonly dataDir: string;
}

/** How to launch one host. */
export interface HostLaunch {
  /** Its data folder; a fresh temporary one when absent. */
  readonly dataDir?: string;
  /** More host options: `--paper-tick-ms 0`, `--renderer-dir DIR`… */
  readonly args?: readonly string[];
  /** Variables added to the host's environment: `TRADEDESK_API_SECRET` (never an argument, README.md). */
  readonly env?: Readonly<Record<string, string>>;
  /** How long to wait for READY (a large paper journal replays first). Default 20 s. */
  readonly readyTimeoutMs?: number;
}

/** One launch: what a page needs, and the process to signal or watch. */
export interface HostProcess {
  readonly handle: HostHandle;
  readonly child: ChildProcess;
}

/** Spawns the host and waits for its READY line (after the PAPER line `--paper-control` prints: the paper broker's URL and control secret). */
export async function spawnHost(launch: HostLaunch = {}): Promise<HostProcess> {
  const dataDir = launch.dataDir ?? mkdtempSync(join(tmpdir(), 'tradedesk-e2e-'));
  const timeoutMs = launch.readyTimeoutMs ?? 20_000;
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/host.mjs', '--port', '0', '--paper-control', '--data-dir', dataDir, ...(launch.args ?? [])],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...launch.env } },
  );
  const lines = createInterface({ input: child.stdout! });
  let paperUrl = '';
  let paperControl = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`host did not print READY within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.once('exit', (code) => reject(new Error(`host exited with ${code} before READY`)));
    lines.on('line', (line) => {
      // `PAPER <url> control=<secret>`.
      const paper = /^PAPER (\S+) control=(\S+)$/.exec(line.trim());
      if (paper) [, paperUrl = '', paperControl = ''] = paper;
      if (line.startsWith('READY ')) {
        clearTimeout(timer);
        // `READY <url> (data: <folder>)`: the URL is the first word.
        resolve(line.slice(6).trim().split(/\s+/)[0] ?? '');
      }
    });
  });
  const u = new URL(url);
  return {
    handle: { url, origin: u.origin, key: u.searchParams.get('key') ?? '', paperUrl, paperControl, dataDir },
    child,
  };
}

/**
 * Starts a host (`extraArgs` as in `spawnHost`'s `args`) and returns it with `stop`: SIGTERM,
 * then SIGKILL if it has not exited within 3 s.
 */
export async function startHost(
  extraArgs: readonly string[] = [],
  launch: Omit<HostLaunch, 'args'> = {},
): Promise<HostProcess & { stop: () => Promise<void> }> {
  const host = await spawnHost({ ...launch, args: extraArgs });
  const { child } = host;
  return {
    ...host,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
