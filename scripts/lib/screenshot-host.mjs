// What every screenshot script starts with: where the pictures go (`outDirFromArgs`), and the desk
// of a fresh account (`withShotDesk`): a throwaway data dir, the browser host (out/host.mjs) with
// its paper broker's control interface on, Chromium on the desk and a client of the paper broker.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The `--out` folder of the command line, docs/ by default. */
export function outDirFromArgs(argv = process.argv) {
  return resolve(argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : 'docs');
}

/** A fresh data dir for one script's account (the caller removes it). */
function freshDataDir(label) {
  return mkdtempSync(join(tmpdir(), `tradedesk-${label}-`));
}

/**
 * Starts out/host.mjs on `dataDir` (with `extraArgs`, e.g. `--paper-tick-ms 0` for prices that
 * move only when told) and resolves `ready` with its page URL, paper broker URL and control secret.
 */
function startHost(dataDir, extraArgs = []) {
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
 * market with. The session is the app's, which is polling too: a 429 is waited out as the broker
 * asks (its Retry-After), a few times.
 */
function paperClient(paperUrl, paperControl) {
  let token = '';
  const json = async (method, path, body, auth = true) => {
    let res;
    for (let attempt = 0; ; attempt++) {
      res = await fetch(`${paperUrl}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${token}` } : { 'X-Paper-Control': paperControl }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 429 || attempt >= 5) break;
      await res.text();
      await new Promise((r) => setTimeout(r, 1_000 * Number(res.headers.get('retry-after') ?? 1)));
    }
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
    instruments: async (exchange) => (await json('GET', `/instruments?exchange=${exchange}`)).instruments,
    place: (order) => json('POST', '/orders', { validity: 'DAY', ...order }),
    cancel: (orderId) => json('DELETE', `/orders/${orderId}`),
    marketStatus: () => json('GET', '/market/status'),
    setPrice: (instrument_token, last_price) =>
      json('POST', '/_control/price', { instrument_token, last_price }, false),
    /** Moves the market clock (a night passing: the close, then the next open). */
    setClock: (at) => json('POST', '/_control/clock', { at }, false),
    tick: (count) => json('POST', '/_control/tick', { count }, false),
  };
}

/** Chromium at 1440×900 on the desk at `url`, once it says it is connected. */
async function openDesk(chromium, url) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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

/**
 * Runs `shoot({ page, broker })` on the desk of a fresh account: a throwaway data dir, the host on
 * it (with `hostArgs`), Chromium on the desk once connected (`openDesk`) and a paper client on the
 * app's session (`paperClient`). The browser, the host and the data dir go afterwards, whatever
 * happened.
 */
export async function withShotDesk(chromium, label, hostArgs, shoot) {
  const dataDir = freshDataDir(label);
  const { child, ready } = startHost(dataDir, hostArgs);
  let browser;
  try {
    const { url, paperUrl, paperControl } = await ready;
    let page;
    ({ browser, page } = await openDesk(chromium, url));
    const broker = paperClient(paperUrl, paperControl);
    await broker.useAppSession();
    await shoot({ page, broker });
  } finally {
    await browser?.close();
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
