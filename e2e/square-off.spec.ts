import type { Page } from '@playwright/test';
import {
  controlHeaders,
  docShotPath,
  fillTicket,
  instrumentToken,
  openDashboard,
  chooseSymbol,
  placeOrder,
  setPrice,
} from './dashboard-helpers';
import { expect, startHost, test } from './fixtures';

/**
 * Square-off at a time (docs/desk.md §Square-off), in Chromium against the paper broker on its own
 * market clock: turned on from the header's chip, its countdown to 15:10, the warning two minutes
 * before (chip and toast), and at the time the intraday position exited by main and the chip's
 * "Squared off at 15:10:0x: 1 position". The test moves the paper market's clock.
 */

const chip = (page: Page) => page.getByTestId('square-off-chip');

async function clockTo(handle: Parameters<typeof controlHeaders>[0], at: string): Promise<void> {
  const res = await fetch(`${handle.paperUrl}/_control/clock`, {
    method: 'POST',
    headers: controlHeaders(handle),
    body: JSON.stringify({ at }),
  });
  expect(res.status).toBe(200);
}

test('the countdown, the warning two minutes before, and the intraday position squared off at 15:10', async ({
  page,
}) => {
  // Friday 27 Nov 2026, 15:00 IST: NSE open.
  const own = await startHost(['--paper-tick-ms', '0', '--paper-clock', '2026-11-27T15:00:00+05:30']);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    const infy = await instrumentToken(own.handle, 'NSE', 'INFY');
    await setPrice(own.handle, infy, 1500);
    await openDashboard(page, own.handle);
    await chooseSymbol(page, 'INFY', /^INFY NSE/);
    await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '10' });
    await placeOrder(page);
    const positions = page.getByRole('table', { name: 'Positions' });
    await expect(positions.getByRole('row', { name: /INFY/ })).toContainText('MIS');

    await expect(chip(page)).toHaveText('Square-off off');
    await chip(page).click();
    const dialog = page.getByRole('dialog', { name: 'Square-off at a time' });
    await expect(dialog.getByLabel('NSE time')).toHaveValue('15:10');
    await dialog.getByLabel('NSE time').fill('15:45');
    await dialog.getByRole('checkbox', { name: 'Square off intraday positions at a time' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText("must be before NSE's close")).toBeVisible();
    await dialog.getByLabel('NSE time').fill('15:10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(chip(page)).toHaveText(/^Square-off 15:10 · \d+:\d\d$/);
    await page.locator('header.topbar').screenshot({ path: docShotPath('square-off-countdown.png') });

    await clockTo(own.handle, '2026-11-27T15:08:20+05:30');
    await expect(chip(page)).toHaveText(/^Square-off at 15:10 in 1:\d\d$/, { timeout: 20_000 });
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await expect(toasts.getByText('Square-off at 15:10', { exact: true })).toBeVisible();
    await expect(toasts).toContainText('Intraday (MIS) positions on NSE are exited then');
    await page.screenshot({ path: docShotPath('square-off-warning.png') });

    await clockTo(own.handle, '2026-11-27T15:10:00+05:30');
    await expect(chip(page)).toHaveText(/^Squared off at 15:10:\d\d: 1 position$/, { timeout: 20_000 });
    await expect(positions.getByRole('row', { name: /INFY/ }).getByRole('cell').nth(3)).toHaveText('0');
    await page.locator('header.topbar').screenshot({ path: docShotPath('square-off-done.png') });
  } finally {
    await own.stop();
  }
});
