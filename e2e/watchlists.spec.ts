import type { Page } from '@playwright/test';
import { openDashboard } from './dashboard-helpers';
import { expect, test } from './fixtures';

/**
 * Named watchlists (docs/desk.md §Named watchlists): made, filled, reordered from the keyboard,
 * switched and kept across a reload, in Chromium against the real services.
 */

const symbols = (page: Page): Promise<string[]> =>
  page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row] td.sym').allTextContents();

async function addToWatchlist(page: Page, symbol: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Add to watchlist' });
  await box.fill(symbol);
  await expect(page.getByRole('listbox').getByRole('option').first()).toContainText(symbol);
  await box.press('Enter');
  await expect(
    page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }),
  ).toBeVisible();
}

test('a second named list is made, filled, reordered with Alt+↑ and a drag, kept across a reload, and the first list is untouched', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  await expect.poll(async () => (await symbols(page)).length).toBeGreaterThan(2);
  const first = await symbols(page);

  await page.getByRole('button', { name: 'Manage watchlists' }).click();
  const dialog = page.getByRole('dialog', { name: 'Watchlists' });
  await dialog.getByRole('textbox', { name: 'New list name' }).fill('watchlist 1');
  await dialog.getByRole('button', { name: 'Add list' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('There is already a list called watchlist 1');
  await dialog.getByRole('textbox', { name: 'New list name' }).fill('Banks');
  await dialog.getByRole('button', { name: 'Add list' }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const picker = page.getByRole('combobox', { name: 'Shown watchlist' });
  await expect(picker.locator('option:checked')).toHaveText('Banks');
  expect(await symbols(page)).toEqual([]);
  await addToWatchlist(page, 'SBIN');
  await addToWatchlist(page, 'HDFCBANK');
  await page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row]').nth(1).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => symbols(page)).toEqual(['HDFCBANK', 'SBIN']);
  const rows = page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row]');
  await expect(rows.nth(0)).toBeFocused(); // the moved row keeps the focus, to move it again
  await rows.nth(1).dragTo(rows.nth(0)); // and a drag puts SBIN back on top
  await expect.poll(() => symbols(page)).toEqual(['SBIN', 'HDFCBANK']);
  await rows.nth(1).focus();
  await page.keyboard.press('Alt+ArrowUp');

  await page.reload();
  await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
  await expect(picker.locator('option:checked')).toHaveText('Banks');
  await expect.poll(() => symbols(page)).toEqual(['HDFCBANK', 'SBIN']);
  await picker.selectOption({ label: 'Watchlist 1' });
  await expect.poll(() => symbols(page)).toEqual(first);
});
