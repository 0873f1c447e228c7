import {
  chooseSymbol,
  docShotPath,
  fillTicket,
  instrumentToken,
  orderRow,
  placeOrder,
  setPrice,
} from './dashboard-helpers';
import { expect, startHost, test, type HostHandle } from './fixtures';
import { startKitePaper, type KitePaper } from './kite-paper';

/**
 * Trading on Upstox, shown against the paper broker's Upstox dialect (docs/upstox.md §The
 * adapter): the host starts on `--broker upstox` with the day's access token, and the dashboard
 * places, modifies and cancels through the Upstox adapter, with live ticks from its market data
 * feed and products as Upstox names them.
 */

let paper: KitePaper;
let host: { handle: HostHandle; stop: () => Promise<void> };
let upstoxRoot: string;

/** The day's access token, as the trader would have it from Upstox's login dialog. */
async function accessToken(root: string): Promise<string> {
  const redirect = 'http://127.0.0.1/upstox/callback';
  const dialog = new URL(`${root}/v2/login/authorization/dialog`);
  dialog.search = new URLSearchParams({ client_id: 'paper', redirect_uri: redirect, response_type: 'code' }).toString();
  const r = await fetch(dialog, { redirect: 'manual' });
  const code = new URL(r.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const t = await fetch(`${root}/v2/login/authorization/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      code,
      client_id: 'paper',
      client_secret: 'paper',
      redirect_uri: redirect,
      grant_type: 'authorization_code',
    }).toString(),
  });
  return ((await t.json()) as { access_token: string }).access_token;
}

test.beforeAll(async () => {
  paper = await startKitePaper([]);
  upstoxRoot = paper.url.replace(/\/v1$/, '/upstox');
  host = await startHost(['--broker', 'upstox', '--broker-url', upstoxRoot, '--api-key', 'paper'], {
    env: { TRADEDESK_ACCESS_TOKEN: await accessToken(upstoxRoot) },
  });
});
test.afterAll(async () => {
  await host.stop();
  paper.child.kill('SIGTERM');
});

test('a session on paper Upstox places, modifies and cancels, streams live ticks, and names products as Upstox does', async ({
  page,
}) => {
  // The control interface of the paper broker behind /upstox (the same account as /v1).
  const control: HostHandle = { ...host.handle, paperUrl: paper.url, paperControl: paper.controlSecret };
  await page.goto(host.handle.url);
  await expect(page.getByRole('status').filter({ hasText: /Connected to/ })).toContainText(/Upstox .* as PAPER01/);

  const infy = await instrumentToken(control, 'NSE', 'INFY');
  await setPrice(control, infy, 1500);
  await chooseSymbol(page, 'INFY', /^INFY NSE/);
  await expect(page.getByLabel('Product').locator('option')).toHaveText(['I', 'D', 'D (not for this instrument)']);
  await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '2' });
  const marketId = await placeOrder(page);
  await expect(orderRow(page, marketId)).toContainText('COMPLETE');
  await expect(orderRow(page, marketId).getByRole('cell', { name: 'I', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Positions' })).toContainText('INFY');

  await fillTicket(page, { orderType: 'LIMIT', price: '1450', quantity: '1' });
  const id = await placeOrder(page);
  await expect(orderRow(page, id)).toContainText('OPEN');
  await orderRow(page, id)
    .getByRole('button', { name: `Modify ${id}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Modify order ${id}` });
  await dialog.getByLabel('Quantity').fill('3');
  await dialog.getByLabel('Price', { exact: true }).fill('1440.5');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(orderRow(page, id)).toContainText('1,440.50');
  await expect(orderRow(page, id)).toContainText('0/3');

  // A live tick from Upstox's protobuf market data feed moves the depth ladder.
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: 'INFY', exact: true }).click();
  await setPrice(control, infy, 1512);
  await expect(
    page.getByRole('table', { name: 'Market depth' }).locator('.depth__price--offer button').first(),
  ).toHaveText('1,512.05');
  // Upstox's feed counts no orders at a level: unknown, never 0.
  await expect(page.getByRole('table', { name: 'Market depth' }).locator('.depth__orders').first()).toHaveText('–');
  await page.screenshot({ path: docShotPath('upstox-dashboard.png') });

  await orderRow(page, id)
    .getByRole('button', { name: `Cancel ${id}` })
    .click();
  await expect(orderRow(page, id)).toContainText('CANCELLED');
});
