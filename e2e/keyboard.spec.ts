import type { Page } from '@playwright/test';
import { expect, test, type Desk } from './fixtures';

/**
 * Keyboard first (docs/desk.md §Keyboard): the shortcuts sheet, arrows through the watchlist and
 * the blotter, B/S on a watchlist row, M/Del on an order row and the command palette, in Chromium
 * against the real services.
 */

/** The order id of the focused blotter row, or null when the focus is elsewhere. */
const focusedOrder = (page: Page): Promise<string | null> =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.orderId ?? null);

test('? lists every shortcut; ↓ and B on the watchlist open a buy ticket for the next instrument; Ctrl+K finds "sell sbin" and "show trades"', async ({
  page,
  desk,
}) => {
  await desk.open();

  const watch = page.getByRole('table', { name: 'Instruments' });
  const rows = watch.locator('tr[data-watch-row]');
  await rows.nth(0).click();
  await rows.nth(0).focus();

  // In a field, ? is a question mark; anywhere else it opens the sheet.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByRole('region', { name: 'On an order row' })).toContainText('Cancel the working order');
  await expect(sheet.getByRole('region', { name: 'Anywhere' })).toContainText('Ctrl+K');
  await expect(sheet.getByRole('region', { name: 'On the price ladder' })).toContainText('Buy at the selected price');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(rows.nth(0)).toBeFocused(); // the sheet hands the focus back

  await page.keyboard.press('ArrowDown');
  const second = rows.nth(1);
  await expect(second).toBeFocused();
  await expect(second).toHaveAttribute('aria-selected', 'true');
  const symbol = (await second.locator('td.sym').textContent()) ?? '';
  await page.keyboard.press('b');
  await expect(desk.ticket.getByRole('radio', { name: 'Buy' })).toBeChecked();
  await expect(desk.ticket.getByRole('combobox', { name: 'Symbol' })).toHaveValue(symbol);

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const find = palette.getByRole('combobox', { name: 'Find an instrument or an action' });
  await expect(find).toBeFocused();
  await find.fill('sell sbin');
  await expect(palette.getByRole('option').first()).toContainText('SBIN');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(desk.ticket.getByRole('radio', { name: 'Sell' })).toBeChecked();
  await expect(desk.ticket.getByRole('combobox', { name: 'Symbol' })).toHaveValue('SBIN');

  await page.keyboard.press('Control+k');
  await find.fill('show trades');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Trades' })).toBeVisible();
  await page.getByRole('tab', { name: 'Orders' }).click();
});

test('↑/↓ move through the blotter; M modifies and Del cancels the focused working order, and the focus stays on its row', async ({
  page,
  desk,
}) => {
  const { older, newer } = await twoWorkingOrders(desk);

  // Newest first: the newer order's row, then the older one's below it.
  await desk.orderRow(newer).focus();
  await page.keyboard.press('ArrowDown');
  expect(await focusedOrder(page)).toBe(older);

  await page.keyboard.press('m');
  const dialog = page.getByRole('dialog', { name: `Modify order ${older}` });
  await dialog.getByLabel('Price', { exact: true }).fill('2710');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(desk.orderRow(older)).toContainText('2,710.00');
  await expect.poll(() => focusedOrder(page)).toBe(older);

  await page.keyboard.press('Delete');
  await expect(desk.orderRow(older)).toContainText('CANCELLED');
  await expect.poll(() => focusedOrder(page)).toBe(older);
  await page.keyboard.press('ArrowUp');
  expect(await focusedOrder(page)).toBe(newer);
  await expect(desk.orderRow(newer)).toContainText('OPEN'); // Del cancelled only the focused order
});

test('the watchlist and the blotter are one tab stop each: Tab enters at the last row used and the next Tab leaves', async ({
  page,
  desk,
}) => {
  const { older, newer } = await twoWorkingOrders(desk);
  /** Whether the focus is inside the named table. */
  const inTable = (name: string) =>
    page.evaluate((n) => document.activeElement?.closest(`table[aria-label="${n}"]`) !== null, name);

  // The watchlist: from the field above it, Tab lands on the selected row (TCS, chosen in the
  // ticket), ↓ moves the focus and the selection, Tab leaves past every B/S/× button.
  const watch = page.getByRole('table', { name: 'Instruments' });
  const selected = watch.locator('tr[aria-selected="true"]');
  await expect(selected.locator('td.sym')).toHaveText('TCS');
  await page.getByRole('combobox', { name: 'Add to watchlist' }).focus();
  await page.keyboard.press('Tab');
  await expect(selected).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(selected.locator('td.sym')).not.toHaveText('TCS');
  await expect(selected).toBeFocused();
  const next = (await selected.locator('td.sym').textContent()) ?? '';
  await page.keyboard.press('Tab');
  expect(await inTable('Instruments')).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(selected).toBeFocused(); // back where the trader left it
  await expect(selected.locator('td.sym')).toHaveText(next);

  // The blotter: from the last column's header, Tab lands on the newest order (past no
  // Modify/Cancel button), ↓ moves, Tab leaves; Shift+Tab comes back to the row last used.
  await blotterHeader(page, 'Message').focus();
  await page.keyboard.press('Tab');
  expect(await focusedOrder(page)).toBe(newer);
  await page.keyboard.press('ArrowDown');
  expect(await focusedOrder(page)).toBe(older);
  await page.keyboard.press('Tab');
  expect(await inTable('Orders')).toBe(false);
  await page.keyboard.press('Shift+Tab');
  expect(await focusedOrder(page)).toBe(older);
  await page.keyboard.press('m'); // the row's keys still work after coming back
  await expect(page.getByRole('dialog', { name: `Modify order ${older}` })).toBeVisible();
  await page.keyboard.press('Escape');
});

/** Two working LIMIT buys of TCS (the selected instrument after), newest first in the blotter. */
async function twoWorkingOrders(desk: Desk): Promise<{ older: string; newer: string }> {
  await desk.setSymbolPrice('NSE', 'TCS', 3050);
  await desk.open();
  await desk.chooseSymbol('TCS', /^TCS NSE/);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '2700' });
  const older = await desk.placeOrder();
  await desk.fillTicket({ price: '2705' });
  const newer = await desk.placeOrder();
  await expect(desk.orderRow(older)).toContainText('OPEN');
  await expect(desk.orderRow(newer)).toContainText('OPEN');
  return { older, newer };
}

/** The sort button of one blotter column. */
const blotterHeader = (page: Page, column: string) =>
  page.getByRole('table', { name: 'Orders' }).getByRole('columnheader').getByRole('button', { name: column });
