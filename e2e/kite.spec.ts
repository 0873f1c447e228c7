import {
  chooseSymbol,
  fillTicket,
  instrumentToken,
  orderRow,
  placeOrder,
  setPrice,
  ticket,
  docShotPath,
} from './dashboard-helpers';
import { expect, startHost, test, type HostHandle } from './fixtures';
import { startKitePaper, type KitePaper } from './kite-paper';
import { portForLaterListen } from '../electron/app/testing/later-port';

/**
 * Trading on Kite, shown against the paper broker's Kite dialect (docs/kite.md): the trader
 * chooses Zerodha Kite in the session dialog, Kite's login page sends the browser to the app's
 * loopback callback, and the dashboard shows the same blotter, positions, chart and live ticks
 * as on paper (docs/session.md §Login through the broker's page).
 */

let paper: KitePaper;
let host: { handle: HostHandle; stop: () => Promise<void> };
let kiteRoot: string;

test.beforeAll(async () => {
  const port = await portForLaterListen();
  paper = await startKitePaper(['--kite-redirect-url', `http://127.0.0.1:${port}/kite/callback`]);
  kiteRoot = paper.root;
  // No access token: the app starts logged out and asks the trader to log in.
  host = await startHost([
    '--broker',
    'kite',
    '--broker-url',
    kiteRoot,
    '--api-key',
    'paper',
    '--kite-redirect-port',
    String(port),
  ]);
});
test.afterAll(async () => {
  await host.stop();
  paper.child.kill('SIGTERM');
});

test('Kite chosen in the session dialog: the login page redirects to the loopback callback and the dashboard trades on Kite with live ticks', async ({
  page,
}) => {
  // The control interface of the paper broker behind /kite (the same account as /v1).
  const control: HostHandle = { ...host.handle, paperUrl: paper.url, paperControl: paper.controlSecret };
  await page.goto(host.handle.url);
  const form = page.getByRole('form', { name: 'Log in' });
  await expect(form).toBeVisible();
  await form.getByRole('radio', { name: 'Zerodha Kite' }).check();
  await form.getByLabel('Kite API URL (optional)').fill(kiteRoot);
  await form.getByLabel('API key').fill('paper');
  await form.getByLabel('API secret', { exact: true }).fill('paper');
  await page.screenshot({ path: docShotPath('kite-login.png') });

  const popup = page.waitForEvent('popup');
  await form.getByRole('button', { name: 'Log in with Zerodha Kite' }).click();
  const tab = await popup;
  await expect(tab.getByRole('heading', { name: 'Logged in to Zerodha Kite' })).toBeVisible();
  expect(new URL(tab.url()).pathname).toBe('/kite/callback');
  await tab.close();

  await expect(page.getByRole('status').filter({ hasText: /Connected to/ })).toContainText(/Kite .* as PAPER01/);

  const infy = await instrumentToken(control, 'NSE', 'INFY');
  await setPrice(control, infy, 1500);
  await chooseSymbol(page, 'INFY', /^INFY NSE/);
  await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '2' });
  const marketId = await placeOrder(page);
  await expect(orderRow(page, marketId)).toContainText('COMPLETE');
  await fillTicket(page, { orderType: 'LIMIT', price: '1450', quantity: '1' });
  const limitId = await placeOrder(page);
  await expect(orderRow(page, limitId)).toContainText('OPEN');
  await expect(page.getByRole('table', { name: 'Positions' })).toContainText('INFY');
  await expect(page.getByRole('region', { name: 'Chart' })).toBeVisible();

  // A live tick from Kite's binary ticker moves the depth ladder of the selected instrument.
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: 'INFY', exact: true }).click();
  await setPrice(control, infy, 1512);
  await expect(
    page.getByRole('table', { name: 'Market depth' }).locator('.depth__price--offer button').first(),
  ).toHaveText('1,512.05');
  await expect(ticket(page)).toBeVisible();
  // The chart's history comes from Kite's historical endpoint (paced at its 3/s).
  await expect(page.getByRole('region', { name: 'Chart' })).not.toContainText('Loading', { timeout: 20_000 });
  await page.screenshot({ path: docShotPath('kite-dashboard.png') });
});
