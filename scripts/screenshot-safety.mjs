#!/usr/bin/env node
// Screenshots of the safety net for the README: docs/kill-switch.png (a kill switch run that
// cancelled every working order — an after-hours one and a stop included — and exited the
// positions, each order's result on its row) and docs/risk-guard.png (the ticket refused by a
// soft risk limit, with its figures and "Place anyway"; the header's loss-limit chip). Starts the
// browser host with its paper broker (control interface on), makes a small day through the
// broker's REST API with the app's own session, then drives the real renderer in Debian's Chromium.
//
// Usage: npm run build && node scripts/screenshot-safety.mjs [--out docs]
import { chromium } from '@playwright/test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freshDataDir, outDirFromArgs, startHost } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();
const dataDir = freshDataDir('safety-shots');

/** A tiny client of the paper broker's REST API, as the app's own session. */
async function paper(paperUrl, paperControl) {
  const control = { 'content-type': 'application/json', 'X-Paper-Control': paperControl };
  const sessions = await (await fetch(`${paperUrl}/_control/sessions`, { headers: control })).json();
  const token = sessions.sessions.filter((x) => x.active).pop().access_token;
  const json = async (method, path, body) => {
    const res = await fetch(`${paperUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text);
  };
  return {
    setPrice: (instrument_token, last_price) =>
      fetch(`${paperUrl}/_control/price`, {
        method: 'POST',
        headers: control,
        body: JSON.stringify({ instrument_token, last_price }),
      }),
    instruments: async (exchange) => (await json('GET', `/instruments?exchange=${exchange}`)).instruments,
    place: (order) => json('POST', '/orders', { validity: 'DAY', exchange: 'NSE', product: 'MIS', ...order }),
  };
}

const { child, ready } = startHost(dataDir, ['--paper-tick-ms', '0']);
let browser;
try {
  const { url, paperUrl, paperControl } = await ready;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url);
  await page
    .getByRole('status')
    .filter({ hasText: /Connected to/ })
    .waitFor();

  const broker = await paper(paperUrl, paperControl);
  const nse = await broker.instruments('NSE');
  const token = (sym) => nse.find((i) => i.tradingsymbol === sym).instrument_token;
  await broker.setPrice(token('INFY'), 1500);
  await broker.setPrice(token('SBIN'), 800);
  await broker.setPrice(token('RELIANCE'), 2900);
  await broker.place({ tradingsymbol: 'INFY', transaction_type: 'BUY', quantity: 40, order_type: 'MARKET' });
  await broker.place({ tradingsymbol: 'SBIN', transaction_type: 'SELL', quantity: 150, order_type: 'MARKET' });
  await broker.place({
    tradingsymbol: 'INFY',
    transaction_type: 'BUY',
    quantity: 20,
    order_type: 'LIMIT',
    price: 1460,
  });
  await broker.place({
    tradingsymbol: 'RELIANCE',
    transaction_type: 'BUY',
    quantity: 10,
    order_type: 'LIMIT',
    price: 2850,
  });
  await broker.place({
    tradingsymbol: 'SBIN',
    transaction_type: 'BUY',
    quantity: 150,
    order_type: 'SL',
    price: 830,
    trigger_price: 825,
  });
  await broker.setPrice(token('INFY'), 1480);

  // Risk limits: a soft order value limit and a daily loss limit, set in the dialog.
  await page.getByTestId('risk-chip').click();
  const limits = page.getByRole('dialog', { name: 'Risk limits' });
  await limits.getByLabel('Max order value', { exact: true }).fill('500000');
  await limits.getByRole('checkbox', { name: 'Hard limit: Max order value' }).setChecked(false);
  await limits.getByLabel('Daily loss limit', { exact: true }).fill('25000');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await limits.waitFor({ state: 'hidden' });

  // The ticket over the soft limit: the figures and "Place anyway".
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const box = ticket.getByRole('combobox', { name: 'Symbol' });
  await box.click();
  await box.fill('RELIANCE');
  await ticket.getByRole('listbox').getByRole('option').first().waitFor();
  await box.press('Enter');
  await ticket.getByLabel('Order type').selectOption('LIMIT');
  await ticket.getByLabel('Quantity').fill('210');
  await ticket.getByLabel('Price', { exact: true }).fill('2900');
  await ticket.getByRole('button', { name: 'Place order' }).click();
  await ticket.getByTestId('risk-refusal').getByRole('button', { name: 'Place anyway' }).waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'risk-guard.png') });

  // The kill switch: hotkey, confirmation with the exits, then each order's result.
  await page.locator('body').press('Control+Shift+K');
  const confirm = page.getByRole('dialog', { name: 'Kill switch' });
  await confirm.getByLabel(/Also exit every open position/).check();
  await confirm.getByRole('button', { name: 'Cancel all and exit' }).click();
  await page.locator('[data-testid="safety-headline"][data-state="done"]').waitFor({ timeout: 30_000 });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'kill-switch.png') });
  console.log(`wrote ${join(outDir, 'risk-guard.png')} and ${join(outDir, 'kill-switch.png')}`);
} finally {
  await browser?.close();
  child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
