import type { Page } from '@playwright/test';
import { expect, quietHostPerTest, test } from './fixtures';
import { docShotPath, openOnInfy, ticket } from './dashboard-helpers';

/**
 * An unprotected position is loud (docs/brackets.md §Unprotected is loud), in Chromium against
 * the paper broker: a bracket's entry fills and the broker rejects its stop-loss (below the
 * day's lower circuit limit), so the long is held with no working stop. The header shows
 * "UNPROTECTED · INFY 10", a toast that stays says the same, and the Brackets row is red with
 * why — until the trader cancels the bracket.
 */

const quietHost = quietHostPerTest();
const bracketsTable = (page: Page) => page.getByRole('table', { name: 'Brackets' });

test('a stop-loss the broker rejects: the UNPROTECTED badge, a toast that stays and a red row, until the trader cancels', async ({
  page,
}) => {
  const host = quietHost();
  await page.setViewportSize({ width: 1440, height: 900 });
  await openOnInfy(page, host);
  const t = ticket(page);
  await t.getByRole('radio', { name: 'Buy' }).check({ force: true });
  await t.getByLabel('Order type').selectOption('MARKET');
  await t.getByLabel('Product').selectOption('MIS');
  await t.getByLabel('Quantity').fill('10');
  await t.getByRole('button', { name: /Stop-loss, target & size/ }).click();
  // Below the day's lower circuit limit: the broker rejects it each time it is placed.
  await t.getByLabel('Stop-loss', { exact: true }).fill('1100');
  await t.getByLabel('Target', { exact: true }).fill('1530');
  await t.getByRole('checkbox', { name: /Place as a bracket/ }).check();
  await t.getByRole('button', { name: 'Place bracket' }).click();
  await expect(t.getByTestId('ticket-order-id')).toHaveText(/\S+/);

  const badge = page.getByTestId('unprotected-badge');
  await expect(badge).toHaveText('⚠ UNPROTECTED · INFY 10');
  const toast = page
    .getByRole('region', { name: 'Notifications' })
    .getByRole('alert')
    .filter({ hasText: 'UNPROTECTED · INFY 10' });
  await expect(toast).toBeVisible();

  await page.getByRole('tab', { name: 'Brackets' }).click();
  const row = bracketsTable(page).locator('tr[data-phase]').first();
  await expect(row).toHaveAttribute('data-unprotected', 'true');
  await expect(row.getByTestId('bracket-state')).toHaveText('UNPROTECTED 10: Stop-loss rejected');
  await expect(row.getByRole('note')).toContainText('Stop-loss rejected: Your trigger price');
  await page.screenshot({ path: docShotPath('brackets-unprotected.png') });

  // The trader says otherwise: the bracket is cancelled, and the alarm goes with it.
  await row.getByRole('button', { name: 'Cancel the bracket on INFY' }).click();
  await expect(row.getByTestId('bracket-state')).toHaveText('Done: Cancelled by you');
  await expect(badge).toHaveCount(0);
  await expect(toast).toHaveCount(0);
});
