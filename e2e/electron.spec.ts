import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from './electron-binary';
import { expectUnchangedFor } from './negative-checks';

/**
 * The packaged-shape app in a real Electron window: the security checklist items a browser
 * cannot show (webPreferences, sender checks, navigation and window guards, the bridge
 * surface). Runs wherever an Electron binary exists; here it reports itself skipped.
 */
const binary = findElectronBinary();
if (!binary) console.log('electron.spec.ts: skipped: no electron binary (node_modules/electron/dist is missing)');

test.describe('Electron app', () => {
  test.skip(!binary, 'skipped: no electron binary');

  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    app = await electron.launch({
      executablePath: binary!,
      args: ['out/main.cjs'],
      env: { ...process.env, ELECTRON_DISABLE_SECURITY_WARNINGS: 'false' },
    });
    page = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
  });

  test('shows the paper account and the instruments', async () => {
    await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
    await expect(page.getByRole('table', { name: 'Instruments' }).getByRole('row').nth(1)).toBeVisible();
    expect(page.url()).toMatch(/^app:\/\/tradedesk\//);
  });

  test('window runs with the hardened webPreferences', async () => {
    // getLastWebPreferences is undocumented but stable; Electron's own spec suite relies on it.
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const wc = BrowserWindow.getAllWindows()[0]!.webContents as unknown as {
        getLastWebPreferences(): Record<string, unknown>;
      };
      return wc.getLastWebPreferences();
    });
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(
      await page.evaluate(() => [
        typeof (globalThis as { require?: unknown }).require,
        typeof (globalThis as { process?: unknown }).process,
      ]),
    ).toEqual(['undefined', 'undefined']);
  });

  test('the bridge exposes exactly invoke and on, and refuses bad payloads with typed errors', async () => {
    const surface = await page.evaluate(() => Object.keys((window as unknown as { desk: object }).desk).sort());
    expect(surface).toEqual(['invoke', 'on']);
    const reply = await page.evaluate(() =>
      (window as unknown as { desk: { invoke(c: string, p: unknown): Promise<unknown> } }).desk.invoke('orders.place', {
        order: { quantity: 'lots' },
      }),
    );
    expect(reply).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    const unknown = await page.evaluate(() =>
      (window as unknown as { desk: { invoke(c: string, p: unknown): Promise<unknown> } }).desk.invoke(
        'shell.openExternal',
        'https://evil.example',
      ),
    );
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'channel' } });
  });

  test('navigation away and new windows are blocked', async () => {
    const before = page.url();
    // Listen in main first, so the test knows when the attempt has reached the guard.
    await app.evaluate(({ BrowserWindow }) => {
      const wc = BrowserWindow.getAllWindows()[0]!.webContents;
      (globalThis as { reachedGuard?: Promise<string> }).reachedGuard = new Promise((resolve) =>
        wc.once('will-navigate', (_event, url) => resolve(url)),
      );
    });
    await page.evaluate(() => window.location.assign('https://example.com/'));
    expect(await app.evaluate(() => (globalThis as { reachedGuard?: Promise<string> }).reachedGuard)).toBe(
      'https://example.com/',
    );
    // Bounded on purpose (absence cannot be waited for): a navigation the guard let through
    // would have replaced the page well within 2 s of reaching it.
    await expectUnchangedFor('the page URL after a navigation attempt', () => page.url(), before, 2_000);
    expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);
  });

  test('a popped-out panel opens in a hardened BrowserWindow of its own, and comes back when it closes', async () => {
    const chartTab = page.getByRole('tab', { name: 'Chart', exact: true });
    await expect(chartTab).toBeVisible();
    const opened = app.waitForEvent('window');
    await chartTab.hover();
    await page.getByRole('button', { name: 'Pop out Chart', exact: true }).click();
    const popout = await opened;
    expect(popout.url()).toMatch(/^app:\/\/tradedesk\/.*[?&]window=w1$/);
    await expect(popout.getByRole('region', { name: /^Chart/ })).toBeVisible();
    await expect(popout.getByRole('status').first()).toContainText(/Connected to .+ as \S+/);
    await expect(chartTab).toHaveCount(0);
    // The same literal webPreferences as the main window (one factory).
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().includes('window=w1'))!;
      return (
        win.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> }
      ).getLastWebPreferences();
    });
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });

    // The trader closes the pop-out: the shell says so at once and the chart is back in the main window.
    await app.evaluate(({ BrowserWindow }) => {
      BrowserWindow.getAllWindows()
        .find((w) => w.webContents.getURL().includes('window=w1'))!
        .close();
    });
    await expect(chartTab).toBeVisible();
    await expect.poll(() => app.windows().length).toBe(1);
  });
});
