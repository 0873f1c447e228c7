import { spawnSync } from 'node:child_process';
import { WebSocket } from 'ws';
import { expect, test } from './fixtures';

test.describe('walking skeleton on the browser host', () => {
  test('the page shows the connection status and the instrument list', async ({ page, host }) => {
    await page.goto(host.url);
    await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
    const instruments = page.getByRole('table', { name: 'Instruments' });
    await expect(instruments.getByRole('row').nth(1)).toBeVisible();
    expect(await instruments.getByRole('row').count()).toBeGreaterThan(2);
    await page.screenshot({ path: 'test-results/skeleton.png' });
  });

  test('an invalid bridge payload sent from the page is refused with a typed error', async ({ page, host }) => {
    await page.goto(host.url);
    const replies = await page.evaluate(async (key) => {
      const ws = new WebSocket(`ws://${location.host}/bridge?key=${key}`);
      await new Promise((r, j) => {
        ws.onopen = r;
        ws.onerror = j;
      });
      const ask = (msg: unknown) =>
        new Promise<unknown>((resolve) => {
          ws.addEventListener('message', function once(ev) {
            const m = JSON.parse(ev.data as string);
            if ('id' in m) {
              ws.removeEventListener('message', once);
              resolve(m.result);
            }
          });
          ws.send(JSON.stringify(msg));
        });
      const out = {
        badQuantity: await ask({
          id: 1,
          channel: 'orders.place',
          payload: {
            order: {
              exchange: 'NSE',
              tradingsymbol: 'INFY',
              transactionType: 'BUY',
              quantity: -5,
              orderType: 'MARKET',
              product: 'CNC',
              validity: 'DAY',
            },
          },
        }),
        unknownChannel: await ask({ id: 2, channel: 'fs.readFile', payload: '/etc/passwd' }),
        extraField: await ask({ id: 3, channel: 'instruments.list', payload: { exchange: 'NSE', evil: true } }),
      };
      ws.close();
      return out;
    }, host.key);
    expect(replies.badQuantity).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'order.quantity' } });
    expect(replies.unknownChannel).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'channel' } });
    expect(replies.extraField).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
  });

  test('the bridge refuses a WebSocket without the per-launch key or from another origin', async ({ page, host }) => {
    await page.goto(host.url);
    const outcomes = await page.evaluate(async () => {
      const tryOpen = (url: string) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => {
            ws.close();
            resolve('open');
          };
          ws.onerror = () => resolve('refused');
        });
      return {
        noKey: await tryOpen(`ws://${location.host}/bridge`),
        wrongKey: await tryOpen(`ws://${location.host}/bridge?key=${'0'.repeat(64)}`),
      };
    });
    expect(outcomes).toEqual({ noKey: 'refused', wrongKey: 'refused' });
    // Another page or process on the machine, holding the key, is still refused by Origin: the
    // same upgrade with the page's own Origin opens, with a foreign one (or none) it gets a 401.
    const upgrade = (origin: string | undefined) =>
      new Promise<number | 'open'>((resolve) => {
        const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge?key=${host.key}`, {
          headers: origin === undefined ? {} : { Origin: origin },
        });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => undefined);
      });
    expect(await upgrade(host.origin)).toBe('open');
    expect(await upgrade('http://evil.example')).toBe(401);
    expect(await upgrade(`http://localhost:${new URL(host.origin).port}`)).toBe(401);
    expect(await upgrade(undefined)).toBe(401);
  });

  test('the page runs under a strict Content-Security-Policy', async ({ page, host }) => {
    const response = await page.goto(host.url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    // page.evaluate itself bypasses CSP (it runs through the DevTools protocol), so probe the
    // way an injected payload would: inline script, string eval, a request to another origin.
    type Probe = { __violations: string[]; __inlineRan?: boolean };
    await page.evaluate(() => {
      const w = window as unknown as Probe;
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.effectiveDirective));
      const inline = document.createElement('script');
      inline.textContent = 'window.__inlineRan = true; setTimeout("window.__evalRan = true", 0)';
      document.head.append(inline);
      const img = document.createElement('img');
      img.src = 'https://example.com/pixel.png';
      document.body.append(img);
    });
    // Violations are reported asynchronously: wait until both have been.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Probe).__violations))
      .toEqual(expect.arrayContaining(['script-src-elem', 'img-src']));
    // An allowed inline script would have run synchronously when it was appended.
    expect(await page.evaluate(() => (window as unknown as Probe).__inlineRan === true)).toBe(false);
  });

  test('the host refuses a plain-http remote --broker-url at start with exit 2 and an error naming the flag', () => {
    const refused = spawnSync(
      process.execPath,
      ['out/host.mjs', '--port', '0', '--broker-url', 'http://broker.example/v1'],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      '--broker-url: Broker URL must use https:// (plain http is allowed only for 127.0.0.1/localhost/::1)',
    );
  });
});
