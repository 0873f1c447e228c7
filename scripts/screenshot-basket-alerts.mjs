#!/usr/bin/env node
// Screenshots of baskets and alerts for the README: docs/basket-spread.png (a bull call spread
// built from the option chain in two clicks, the basket's margin beside the figure before hedging
// and each leg's) and docs/alert-notifications.png (the alerts dialog with an alert's OS
// notification and sound switches). Starts the browser host with its paper broker (control
// interface on, prices still), then drives the real renderer in Debian's Chromium.
//
// Usage: npm run build && node scripts/screenshot-basket-alerts.mjs [--out docs]
import { chromium } from '@playwright/test';
import { join } from 'node:path';
import { outDirFromArgs, withShotDesk } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();
await withShotDesk(chromium, 'basket-shots', ['--paper-tick-ms', '0'], async ({ page }) => {
  // A bull call spread from the chain: B on the at-the-money call, S on the next strike's call.
  await page.getByRole('tab', { name: 'Option chain' }).click();
  const chain = page.getByRole('table', { name: 'Option chain' });
  const atm = chain.locator('tr.is-atm');
  await atm.waitFor();
  const higher = chain.locator('tr.is-atm + tr[data-strike], tr.is-atm + tr.chain__spot + tr[data-strike]').first();
  await atm.getByRole('button', { name: /^Add BUY \S+CE to basket$/ }).click();
  await higher.getByRole('button', { name: /^Add SELL \S+CE to basket$/ }).click();
  await page.getByRole('tab', { name: 'Basket' }).click();
  await page.locator('[data-testid="basket-margin-summary"][data-state="fresh"]').waitFor();
  // The toasts naming each leg added have said their piece: closed, so the legs show whole.
  const dismiss = page.getByRole('button', { name: 'Dismiss', exact: true });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'basket-spread.png') });

  // The alerts dialog: an alert that also shows the OS notification and plays a tone.
  await page.getByTestId('alerts-button').click();
  const dialog = page.getByRole('dialog', { name: 'Price alerts' });
  const form = dialog.getByRole('form', { name: 'New alert' });
  await form.getByRole('combobox', { name: 'Alert symbol' }).fill('INFY NSE');
  await form.getByRole('textbox', { name: 'Alert price' }).fill('1550');
  await form.getByRole('checkbox', { name: 'OS notification' }).check();
  await form.getByRole('checkbox', { name: 'Sound' }).check();
  await form.getByRole('button', { name: 'Add alert' }).click();
  await dialog.getByRole('row', { name: /INFY above/ }).waitFor();
  await form.getByRole('combobox', { name: 'Alert symbol' }).fill('RELIANCE NSE');
  await form.getByRole('textbox', { name: 'Alert price' }).fill('1380');
  await form.getByRole('combobox', { name: 'Alert condition' }).selectOption('crosses');
  await form.getByRole('checkbox', { name: 'OS notification' }).uncheck();
  await form.getByRole('button', { name: 'Add alert' }).click();
  await dialog.getByRole('row', { name: /RELIANCE crosses/ }).waitFor();
  await dialog.getByRole('button', { name: /^Edit INFY above/ }).click();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'alert-notifications.png') });
  console.log(`wrote ${join(outDir, 'basket-spread.png')} and ${join(outDir, 'alert-notifications.png')}`);
});
