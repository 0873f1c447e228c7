import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  blotter,
  chooseSymbol,
  docShotPath,
  fillTicket,
  instrumentToken,
  orderRow,
  paperRead,
  paperToken,
  placeOrder,
  setPrice,
  ticket,
} from './dashboard-helpers';
import { expectAccessible } from './axe';
import { expect, startHost, test, type HostHandle } from './fixtures';
import { startKitePaper, type KitePaper } from './kite-paper';

/**
 * The desk on a Kite account as a trader meets it in 2026 (docs/kite.md §The rules of 2026),
 * against the paper broker's Kite dialect set up like the trader's app: orders from an address the
 * app has not registered, market protection shown in the ticket and explained in the blotter, and
 * a plan without market data.
 */

/** Today's access token, the way a Kite app gets one: the login page's request token traded with the checksum. */
async function accessToken(root: string): Promise<string> {
  const r = await fetch(`${root}/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
  const requestToken = new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
  const checksum = createHash('sha256').update(`paper${requestToken}paper`).digest('hex');
  const s = await fetch(`${root}/session/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: 'paper', request_token: requestToken, checksum }),
  });
  return ((await s.json()) as { data: { access_token: string } }).data.access_token;
}

interface KiteDesk {
  readonly paper: KitePaper;
  readonly host: { handle: HostHandle; stop: () => Promise<void> };
  /** The paper broker's control interface, for setting prices. */
  readonly control: HostHandle;
  stop(): Promise<void>;
}

async function startKiteDesk(paperFlags: string[]): Promise<KiteDesk> {
  const paper = await startKitePaper(paperFlags);
  const host = await startHost(['--broker', 'kite', '--broker-url', paper.root, '--api-key', 'paper']);
  return {
    paper,
    host,
    control: { ...host.handle, paperUrl: paper.url, paperControl: paper.controlSecret },
    async stop() {
      await host.stop();
      paper.child.kill('SIGTERM');
    },
  };
}

/** Logs in through the session dialog with a pasted access token, and the Kite settings given. */
async function logIn(page: Page, desk: KiteDesk, settings: { protection?: string } = {}): Promise<void> {
  await page.goto(desk.host.handle.url);
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByRole('radio', { name: 'Zerodha Kite' }).check();
  await form.getByLabel('Kite API URL (optional)').fill(desk.paper.root);
  await form.getByLabel('API key').fill('paper');
  await form.getByRole('radio', { name: /access token/ }).check();
  await form.getByRole('textbox', { name: 'Access token' }).fill(await accessToken(desk.paper.root));
  if (settings.protection !== undefined) {
    await form.getByLabel('Market protection %').fill(settings.protection);
  }
  await expectAccessible(page, 'the Kite login with its settings', 'form[aria-label="Log in"]');
  await form.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Connected to/ })).toContainText(/Kite .* as PAPER01/);
}

test.describe('orders from an IP the Kite app has not registered (docs/kite.md §Static IP)', () => {
  let desk: KiteDesk;
  test.beforeAll(async () => {
    desk = await startKiteDesk(['--kite-allowed-ips', '203.0.113.7']);
  });
  test.afterAll(async () => desk.stop());

  test('the ticket says Kite refused this computer’s IP, with the address; nothing is placed and the trader stays logged in', async ({
    page,
  }) => {
    await logIn(page, desk);
    const infy = await instrumentToken(desk.control, 'NSE', 'INFY');
    await setPrice(desk.control, infy, 1500);
    await chooseSymbol(page, 'INFY', /^INFY NSE/);
    await fillTicket(page, { side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '1450' });
    await ticket(page).getByRole('button', { name: 'Place order' }).click();
    await expect(ticket(page).getByRole('alert')).toContainText(
      "Kite refused orders from this computer's IP (127.0.0.1) — add it to the app's allowed IPs in the Kite developer console",
    );
    // Still logged in: no login dialog, the same session, and the blotter empty.
    await expect(page.getByRole('status').filter({ hasText: /Connected to/ })).toContainText('as PAPER01');
    await expect(page.getByRole('form', { name: 'Log in' })).toHaveCount(0);
    await expect(blotter(page)).toContainText('No orders');
    const onPaper = await paperRead<{ orders: unknown[] }>(desk.control, await paperToken(desk.control), '/orders');
    expect(onPaper.orders).toEqual([]);
    await ticket(page).getByRole('alert').scrollIntoViewIfNeeded();
    await page.screenshot({ path: docShotPath('kite-ip-refused.png') });
  });
});

test.describe('market protection (docs/kite.md §Market protection)', () => {
  let desk: KiteDesk;
  test.beforeAll(async () => {
    desk = await startKiteDesk([]);
  });
  test.afterAll(async () => desk.stop());

  test('the ticket shows the profile’s protection for MARKET, and the blotter explains the protected order that rests', async ({
    page,
  }) => {
    await logIn(page, desk, { protection: '2' });
    const idea = await instrumentToken(desk.control, 'NSE', 'IDEA');
    await setPrice(desk.control, idea, 9.13);
    await chooseSymbol(page, 'IDEA', /^IDEA NSE/);
    await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '1000' });
    const note = ticket(page).getByTestId('market-protection');
    await expect(note).toHaveText(
      'Market protection: 2% — Kite places it as a LIMIT at most 2% from the last price; it may rest unfilled if the price runs past it.',
    );
    // The MARKET order goes in as the LIMIT Kite made of it: 9.13 × 1.02 = 9.3126 → 9.31.
    const market = await placeOrder(page);
    await expect(orderRow(page, market)).toContainText('COMPLETE');
    await expect(orderRow(page, market)).toContainText('LIMIT');
    await expect(orderRow(page, market)).toContainText('9.31');

    // A protected stop waits as a stop-limit 2% past its trigger, and the row says why it has a
    // limit the trader never typed.
    await fillTicket(page, { orderType: 'SL-M', triggerPrice: '9.50' });
    await expect(note).toContainText('stop-limit at most 2% from the trigger');
    const stop = await placeOrder(page);
    await expect(orderRow(page, stop)).toContainText('TRIGGER PENDING');
    await expect(orderRow(page, stop)).toContainText('Market protection 2%: limit 9.69');
    await expect(ticket(page).getByTestId('ticket-ack')).toContainText('Market protection 2%: limit 9.69');
    await expect(page.getByRole('table', { name: 'Positions' })).toContainText('IDEA');
    await page.screenshot({ path: docShotPath('kite-market-protection.png') });
    await expectAccessible(page, 'the ticket and blotter with market protection');
    await fillTicket(page, { orderType: 'LIMIT', price: '9.00' });
    await expect(note).toHaveCount(0);
  });
});

test.describe('a Kite plan without market data (docs/kite.md §The plan)', () => {
  let desk: KiteDesk;
  test.beforeAll(async () => {
    desk = await startKiteDesk(['--kite-plan', 'personal']);
  });
  test.afterAll(async () => desk.stop());

  test('the desk says so where prices would be, polls orders and the account, and trades', async ({ page }) => {
    await logIn(page, desk);
    const status = page.getByRole('status').filter({ hasText: /Connected to/ });
    await expect(status.getByTestId('stream-state')).toHaveText('No market data');
    await expect(page.getByRole('region', { name: 'Chart' })).toContainText('No market data on this Kite plan');
    await expect(page.getByRole('region', { name: 'Watchlist' })).toContainText('No market data on this Kite plan');
    // No price passed off as the market's: the instrument list's figure is not shown either.
    await expect(page.getByTestId('ltp-INFY')).toHaveText('–');
    await page.getByRole('tab', { name: 'Depth' }).click();
    await expect(page.getByRole('region', { name: 'Depth' })).toContainText('No market data on this Kite plan');
    await page.getByRole('tab', { name: 'Option chain' }).click();
    await expect(page.getByRole('region', { name: 'Option chain' })).toContainText('No market data on this Kite plan');
    await page.getByRole('tab', { name: 'Chart' }).click();

    // Orders go in and show in the blotter from polling: no ticker on this plan.
    await chooseSymbol(page, 'INFY', /^INFY NSE/);
    await fillTicket(page, { side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '1400' });
    const id = await placeOrder(page);
    await expect(orderRow(page, id)).toContainText('OPEN');
    // Nothing shows as an error or as stale: the polled panels keep their promise.
    await expect(page.locator('.panel--stale')).toHaveCount(0);
    await expect(page.getByRole('alert').filter({ hasText: /Could not load/ })).toHaveCount(0);
    await page.screenshot({ path: docShotPath('kite-personal-plan.png') });
    await expectAccessible(page, 'the desk on a plan without market data');

    await page.getByTestId('alerts-button').click();
    await expect(page.getByRole('dialog', { name: 'Price alerts' })).toContainText(
      'Alerts are off. No market data on this Kite plan: alerts are checked on live prices',
    );
  });
});
