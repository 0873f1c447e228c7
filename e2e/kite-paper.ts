import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A paper broker of its own, started as `npm run paper` starts it. */
export interface KitePaper {
  /** `http://127.0.0.1:P/v1`: the control interface. */
  readonly url: string;
  /** `http://127.0.0.1:P/kite`: the Kite dialect (docs/kite.md). */
  readonly root: string;
  /** The control secret its READY line printed, sent in `X-Paper-Control`. */
  readonly controlSecret: string;
  readonly child: ChildProcess;
}

/**
 * Starts a quiet paper broker (no ticks, control on, its own journal) with the Kite dialect's
 * flags (`--kite-redirect-url`, `--kite-allowed-ips`, `--kite-plan`…: docs/kite.md).
 */
export async function startKitePaper(flags: readonly string[]): Promise<KitePaper> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradedesk-kite-paper-'));
  const child = spawn(
    process.execPath,
    ['out/paper.mjs', '--port', '0', '--control', '--tick-ms', '0', '--data-dir', dataDir, ...flags],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [url, controlSecret] = await new Promise<[string, string]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`paper broker exited with ${code}`)));
    lines.on('line', (line) => {
      // `READY <url> control=<secret>` (the control interface is on).
      const m = /^READY (\S+) control=(\S+)$/.exec(line.trim());
      if (m) resolve([m[1] ?? '', m[2] ?? '']);
    });
  });
  return { url, root: url.replace(/\/v1$/, '/kite'), controlSecret, child };
}
