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
import { join } from 'node:path';
import { outDirFromArgs, withShotDesk } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();
await withShotDesk(chromium, 'safety-shots', ['--paper-tick-ms', '0'], async ({ page, broker }) => {
  const nse = await broker.instruments('NSE');
  const token = (sym) => nse.find((i) => i.tradingsymbol === sym).instrument_token;
  // The day is NSE intraday throughout.
  const place = (order) => broker.place({ exchange: 'NSE', product: 'MIS', ...order });
  await broker.setPrice(token('INFY'), 1500);
  await broker.setPrice(token('SBIN'), 800);
  await broker.setPrice(token('RELIANCE'), 2900);
  await place({ tradingsymbol: 'INFY', transaction_type: 'BUY', quantity: 40, order_type: 'MARKET' });
  await place({ tradingsymbol: 'SBIN', transaction_type: 'SELL', quantity: 150, order_type: 'MARKET' });
  await place({
    tradingsymbol: 'INFY',
    transaction_type: 'BUY',
    quantity: 20,
    order_type: 'LIMIT',
    price: 1460,
  });
  await place({
    tradingsymbol: 'RELIANCE',
    transaction_type: 'BUY',
    quantity: 10,
    order_type: 'LIMIT',
    price: 2850,
  });
  await place({
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
});
