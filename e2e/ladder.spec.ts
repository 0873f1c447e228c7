import type { Locator, Page } from '@playwright/test';
import { expect, quietHostPerTest, startHost, test } from './fixtures';
import { docShotPath, instrumentToken, openOnInfy, orderRow, setLimits, setPrice } from './dashboard-helpers';
import { startKitePaper } from './kite-paper';

/**
 * The price ladder (docs/ladder.md) on the real paper broker: a click on the bid side places a
 * BUY LIMIT that shows in its row, a click on it cancels it, a drag moves it (the blotter shows
 * the new price), the keyboard buys at the selected row, a click while the broker is down reads
 * "Not sent" in its cell, and one the risk guard refuses says why. Each test gets its own quiet host (prices move only when a test
 * moves them), so the column stays where the test put it.
 */

const quietHost = quietHostPerTest();

/** Opens the dashboard on INFY at 1,500 and shows the Ladder tab; returns the ladder's table. */
async function openLadder(page: Page, host = quietHost()): Promise<Locator> {
  await openOnInfy(page, host, 1500);
  await page.getByRole('tab', { name: 'Ladder' }).click();
  const ladder = page.getByRole('table', { name: 'Price ladder' });
  await expect(ladder.locator('tr[data-price="1,500.00"]')).toBeVisible();
  return ladder;
}

const row = (ladder: Locator, price: string): Locator => ladder.locator(`tr[data-price="${price}"]`);

/** The working order button in a row's buys cell. */
const workingBuy = (ladder: Locator, price: string): Locator =>
  ladder.getByTestId(`ladder-buys-${price}`).locator('button[data-order-id]');

test('a click on the bid side places a BUY LIMIT shown in its row; a drag moves it (the blotter shows the new price); a click on it cancels it', async ({
  page,
}) => {
  const ladder = await openLadder(page);
  await expect(page.getByTestId('ladder-position')).toHaveText('No position');

  await row(ladder, '1,499.50')
    .getByRole('button', { name: /^Buy 1 at 1,499\.50$/ })
    .click();
  const order = workingBuy(ladder, '1,499.50');
  await expect(order).toHaveText(/^B 1/);
  const id = (await order.getAttribute('data-order-id')) ?? '';
  expect(id).not.toBe('');
  await expect(orderRow(page, id)).toContainText('LIMIT');
  await expect(orderRow(page, id)).toContainText('1,499.50');
  await expect(page.getByTestId('ladder-status')).toContainText(`placed as order ${id}`);

  // Dragged two rows down: the broker moves it, the blotter shows the new price.
  await order.dragTo(row(ladder, '1,499.40'));
  await expect(workingBuy(ladder, '1,499.40')).toHaveAttribute('data-order-id', id);
  await expect(workingBuy(ladder, '1,499.50')).toHaveCount(0);
  await expect(orderRow(page, id)).toContainText('1,499.40');

  // A click on the working order's cell cancels it.
  await workingBuy(ladder, '1,499.40').click();
  await expect(workingBuy(ladder, '1,499.40')).toHaveCount(0);
  await expect(orderRow(page, id)).toContainText('CANCELLED');
});

test('the keyboard: arrows move the selected row, B buys at it, Del cancels what is there', async ({ page }) => {
  const ladder = await openLadder(page);
  const column = page.getByRole('group', { name: /^Price ladder of INFY/ });
  await row(ladder, '1,500.00').locator('th').click();
  await expect(row(ladder, '1,500.00')).toHaveAttribute('data-selected', 'true');
  await column.focus();
  for (let k = 0; k < 3; k++) await column.press('ArrowDown');
  await expect(row(ladder, '1,499.85')).toHaveAttribute('data-selected', 'true');
  await column.press('b');
  const order = workingBuy(ladder, '1,499.85');
  await expect(order).toHaveText(/^B 1/);
  const id = (await order.getAttribute('data-order-id')) ?? '';
  await expect(orderRow(page, id)).toContainText(/BUY[\s\S]*LIMIT[\s\S]*1,499\.85/);
  // Del cancels what is at the selected row.
  await column.press('Delete');
  await expect(order).toHaveCount(0);
  await expect(orderRow(page, id)).toContainText('CANCELLED');
});

test('a click while the broker is down reads "Not sent" in its cell, and nothing is placed', async ({ page }) => {
  // A paper broker of its own, so the test can take it away: the desk then cannot connect.
  const paper = await startKitePaper([]);
  const desk = await startHost(['--broker-url', paper.url, '--api-key', 'paper'], {
    env: { TRADEDESK_API_SECRET: 'paper' },
  });
  try {
    const ladder = await openLadder(page, { ...desk.handle, paperUrl: paper.url, paperControl: paper.controlSecret });
    const exited = new Promise((resolve) => paper.child.once('exit', resolve));
    paper.child.kill('SIGKILL');
    await exited;
    await row(ladder, '1,499.50')
      .getByRole('button', { name: /^Buy 1 at 1,499\.50$/ })
      .click();
    const cell = ladder.getByTestId('ladder-buys-1,499.50');
    // "Not sent" in the clicked cell, and the reason on a line under the row.
    await expect(cell.locator('[data-state="refused"]')).toHaveText('Not sent');
    await expect(ladder.getByTestId('ladder-note-1,499.50')).toHaveText(/^Not sent: could not reach the broker/);
    await expect(cell.locator('button[data-order-id]')).toHaveCount(0);
    await expect(page.getByTestId('ladder-status')).toContainText('Not sent');
    await page
      .getByRole('region', { name: 'Ladder' })
      .screenshot({ path: test.info().outputPath('ladder-not-sent.png') });
  } finally {
    await desk.stop();
    paper.child.kill('SIGKILL');
  }
});

test('a click the risk guard refuses says why in place, and nothing is placed', async ({ page }) => {
  const ladder = await openLadder(page);
  await setLimits(page, { 'Max quantity': { value: '1', hard: true } });
  await page.getByRole('combobox', { name: 'Ladder quantity' }).selectOption('2');
  await row(ladder, '1,499.50')
    .getByRole('button', { name: /^Buy 2 at 1,499\.50$/ })
    .click();
  await expect(ladder.getByTestId('ladder-buys-1,499.50').locator('[data-state="refused"]')).toHaveText('Not placed');
  await expect(ladder.getByTestId('ladder-note-1,499.50')).toContainText('Quantity 2 exceeds your limit of 1');
  await expect(workingBuy(ladder, '1,499.50')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Orders' }).locator('tr[data-order-id]')).toHaveCount(0);
});

test('the picture for docs/ladder.md: working orders, the last price and volume at price', async ({ page }) => {
  // A taller window than the specs' default, so the picture shows the rows around the price.
  await page.setViewportSize({ width: 1440, height: 1400 });
  const host = quietHost();
  const ladder = await openLadder(page, host);
  // A few trades at nearby prices, so the volume column has something to show.
  const infy = await instrumentToken(host, 'NSE', 'INFY');
  for (const p of [1500.1, 1499.95, 1500.2, 1500.05, 1499.9, 1500.1, 1500]) await setPrice(host, infy, p);
  await expect(ladder.locator('td.ladder__volume:not(:empty)')).not.toHaveCount(0);
  await row(ladder, '1,499.80')
    .getByRole('button', { name: /^Buy 1 at/ })
    .click();
  await expect(workingBuy(ladder, '1,499.80')).toHaveCount(1);
  await row(ladder, '1,500.25')
    .getByRole('button', { name: /^Sell 1 at/ })
    .click();
  await expect(ladder.getByTestId('ladder-sells-1,500.25').locator('button[data-order-id]')).toHaveCount(1);
  // On the bid side above the offer: a stop buy (SL), as ladders do.
  await row(ladder, '1,500.15')
    .getByRole('button', { name: /^Buy 1 at/ })
    .click();
  await expect(workingBuy(ladder, '1,500.15')).toHaveText(/^B 1 SL/);
  await page.getByRole('button', { name: 'Centre' }).click();
  await page.getByRole('region', { name: 'Ladder' }).screenshot({ path: docShotPath('ladder.png') });
});
