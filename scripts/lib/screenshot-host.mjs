// What every screenshot script starts with: where the pictures go, a throwaway data dir, and
// the browser host (out/host.mjs) with its paper broker's control interface on.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The `--out` folder of the command line, docs/ by default. */
export function outDirFromArgs(argv = process.argv) {
  return resolve(argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : 'docs');
}

/** A fresh data dir for one script's account (the caller removes it). */
export function freshDataDir(label) {
  return mkdtempSync(join(tmpdir(), `tradedesk-${label}-`));
}

/**
 * Starts out/host.mjs on `dataDir` (with `extraArgs`, e.g. `--paper-tick-ms 0` for prices that
 * move only when told) and resolves `ready` with its page URL, paper broker URL and control secret.
 */
export function startHost(dataDir, extraArgs = []) {
  const child = spawn(
    process.execPath,
    ['out/host.mjs', '--port', '0', '--paper-control', ...extraArgs, '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let paperUrl = '';
  let paperControl = '';
  const ready = new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('host did not print READY within 20 s')), 20_000);
    child.once('exit', (code) => rej(new Error(`host exited with ${code} before READY`)));
    lines.on('line', (line) => {
      // `PAPER <url> control=<secret>`: the control interface wants the secret in X-Paper-Control.
      const paper = /^PAPER (\S+) control=(\S+)$/.exec(line.trim());
      if (paper) [, paperUrl, paperControl] = paper;
      if (line.startsWith('READY ')) {
        clearTimeout(timer);
        // `READY <url> (data: <folder>)`: the URL is the first word.
        res({ url: line.slice(6).trim().split(/\s+/)[0], paperUrl, paperControl });
      }
    });
  });
  return { child, ready };
}

/**
 * A small client of the paper broker's REST API under the app's own session (read from the
 * control interface), and of its control interface: what screenshot scripts trade and move the
 * market with.
 */
export function paperClient(paperUrl, paperControl) {
  let token = '';
  const json = async (method, path, body, auth = true) => {
    const res = await fetch(`${paperUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(auth ? { authorization: `Bearer ${token}` } : { 'X-Paper-Control': paperControl }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  return {
    async useAppSession() {
      const { sessions } = await json('GET', '/_control/sessions', undefined, false);
      const s = sessions.filter((x) => x.active).pop();
      if (!s) throw new Error('the app has no paper session yet');
      token = s.access_token;
    },
    place: (order) => json('POST', '/orders', { validity: 'DAY', ...order }),
    tick: (count) => json('POST', '/_control/tick', { count }, false),
    marketStatus: () => json('GET', '/market/status'),
  };
}

/** Chromium at 1440×900 on the desk at `url`, once it says it is connected. */
export async function openDesk(chromium, url) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url);
  await page
    .getByRole('status')
    .filter({ hasText: /Connected to/ })
    .waitFor();
  return { browser, page };
}
