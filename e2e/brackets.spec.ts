import type { Page } from '@playwright/test';
import { expect, quietHostPerTest, test } from './fixtures';
import { docShotPath, openOnInfy, orderRow, paperRead, paperToken, setPrice, ticket } from './dashboard-helpers';

/**
 * Brackets from the ticket through the browser host against the paper broker (docs/brackets.md):
 * the quantity sized from a risk, the entry filled, main places the stop-loss and the target as a
 * pair (the Brackets tab says "Protecting 50", both are in the blotter); the price reaches the
 * target, main cancels the stop-loss, and the tab says the bracket is done. Cancel ends one that
 * is still waiting for its entry. Each test gets its own quiet host, so prices move only here.
 */

const quietHost = quietHostPerTest();

const bracketsTable = (page: Page) => page.getByRole('table', { name: 'Brackets' });

interface PaperOrder {
  order_id: string;
  transaction_type: string;
  order_type: string;
  quantity: number;
  price: number;
  trigger_price: number;
  status: string;
}

/** The broker's orders of the session, read from the paper broker. */
async function paperOrders(host: Parameters<typeof paperToken>[0]): Promise<PaperOrder[]> {
  const token = await paperToken(host);
  const body = await paperRead<{ orders: PaperOrder[] } | PaperOrder[]>(host, token, '/orders');
  return Array.isArray(body) ? body : body.orders;
}

test('a bracket from the ticket: sized from risk, the entry fills, the exits are placed as a pair, the target fills and the stop-loss is cancelled', async ({
  page,
}) => {
  const host = quietHost();
  // Tall enough for the whole ticket with its section open (the doc's picture).
  await page.setViewportSize({ width: 1440, height: 1100 });
  const infy = await openOnInfy(page, host);
  const t = ticket(page);
  await t.getByRole('radio', { name: 'Buy' }).check({ force: true });
  await t.getByLabel('Order type').selectOption('MARKET');
  await t.getByLabel('Product').selectOption('MIS');

  await t.getByRole('button', { name: /Stop-loss, target & size/ }).click();
  await t.getByLabel('Stop-loss', { exact: true }).fill('20');
  await t.getByLabel('Stop-loss as').selectOption('distance');
  await t.getByLabel('Target', { exact: true }).fill('1530');
  await t.getByLabel('Risk', { exact: true }).fill('1000');
  // ₹20 a share below 1,500: ₹1,000 sizes 50 shares.
  await expect(t.getByLabel('Quantity')).toHaveValue('50');
  await expect(t.getByTestId('size-from-risk')).toContainText('₹1,000.00 at risk');
  await expect(t.getByTestId('margin-required')).toHaveText(/₹/);
  await t.getByRole('checkbox', { name: /Place as a bracket/ }).check();
  await t.screenshot({ path: docShotPath('bracket-ticket.png') });

  await t.getByRole('button', { name: 'Place bracket' }).click();
  await expect(t.getByTestId('ticket-order-id')).toHaveText(/\S+/);

  await page.getByRole('tab', { name: 'Brackets' }).click();
  const row = bracketsTable(page).locator('tr[data-phase]').first();
  await expect(row.getByTestId('bracket-state')).toHaveText('Protecting 50');
  await expect(row.getByTestId('bracket-stop')).toHaveText('SL-M 1,480.00 · working');
  await expect(row.getByTestId('bracket-target')).toHaveText('LIMIT 1,530.00 · working');

  // Both exits are at the broker, and in the blotter.
  let stop: PaperOrder | undefined;
  let target: PaperOrder | undefined;
  await expect(async () => {
    const orders = await paperOrders(host);
    stop = orders.find((o) => o.transaction_type === 'SELL' && o.order_type === 'SL-M');
    target = orders.find((o) => o.transaction_type === 'SELL' && o.order_type === 'LIMIT');
    expect(stop).toMatchObject({ quantity: 50, trigger_price: 1480, status: 'TRIGGER PENDING' });
    expect(target).toMatchObject({ quantity: 50, price: 1530, status: 'OPEN' });
  }).toPass();
  await page.getByRole('tab', { name: 'Orders' }).click();
  await expect(orderRow(page, stop!.order_id)).toContainText('TRIGGER PENDING');
  await expect(orderRow(page, target!.order_id)).toContainText('OPEN');

  // The price reaches the target: it fills, main cancels the stop-loss.
  await setPrice(host, infy, 1530);
  await expect(orderRow(page, target!.order_id)).toContainText('COMPLETE');
  await expect(orderRow(page, stop!.order_id)).toContainText('CANCELLED');
  await page.getByRole('tab', { name: 'Brackets' }).click();
  await expect(row.getByTestId('bracket-state')).toHaveText('Done: Target filled at 1,530.00');
  await expect(row.getByTestId('bracket-stop')).toHaveText('SL-M 1,480.00 · cancelled');

  // A second bracket whose stop-loss trails ₹5 behind the best price: it moves up, never down.
  await t.getByLabel('Risk', { exact: true }).fill('');
  await t.getByLabel('Stop-loss as').selectOption('price');
  await t.getByLabel('Stop-loss', { exact: true }).fill('1515');
  await t.getByLabel('Target', { exact: true }).fill('1600');
  await t.getByLabel('Trail by').selectOption('points');
  await t.getByLabel('Trail the stop').fill('5');
  await t.getByRole('button', { name: 'Place bracket' }).click();
  const trailing = bracketsTable(page).locator('tr[data-phase]').first();
  // The entry filled at the offer, 1,530.05: the stop starts ₹5 behind it.
  await expect(trailing.getByTestId('bracket-state')).toHaveText('Trailing at 1,525.05');
  await setPrice(host, infy, 1540);
  await expect(trailing.getByTestId('bracket-state')).toHaveText('Trailing at 1,535.00');
  await setPrice(host, infy, 1536);
  await expect(trailing.getByTestId('bracket-state')).toHaveText('Trailing at 1,535.00');
  await expect(trailing.getByTestId('bracket-trail')).toHaveText(/^trails ₹5 · moved [2-9]×$/);
  await page.locator('section', { has: bracketsTable(page) }).screenshot({ path: docShotPath('brackets-tab.png') });
});

test('a bracket waiting for its entry: the tab says so, and Cancel cancels the entry and ends it', async ({ page }) => {
  const host = quietHost();
  await openOnInfy(page, host);
  const t = ticket(page);
  await t.getByRole('radio', { name: 'Buy' }).check({ force: true });
  await t.getByLabel('Order type').selectOption('LIMIT');
  await t.getByLabel('Product').selectOption('MIS');
  await t.getByLabel('Quantity').fill('10');
  await t.getByLabel('Price', { exact: true }).fill('1450');
  await t.getByRole('button', { name: /Stop-loss, target & size/ }).click();
  await t.getByLabel('Stop-loss', { exact: true }).fill('1470');
  await t.getByRole('checkbox', { name: /Place as a bracket/ }).check();
  // Below a LIMIT of 1,450, not above: named under the field before anything is sent.
  await expect(t.getByText('The stop-loss must be below ₹1,450.00 for a long position')).toBeVisible();
  await expect(t.getByRole('button', { name: 'Place bracket' })).toBeDisabled();
  await t.getByLabel('Stop-loss', { exact: true }).fill('1430');
  await t.getByRole('button', { name: 'Place bracket' }).click();
  await expect(t.getByTestId('ticket-order-id')).toHaveText(/\S+/);
  const entryId = (await t.getByTestId('ticket-order-id').textContent()) ?? '';
  await expect(t.getByTestId('ticket-bracket')).toContainText('Waiting for entry');

  await page.getByRole('tab', { name: 'Brackets' }).click();
  const row = bracketsTable(page).locator('tr[data-phase]').first();
  await expect(row.getByTestId('bracket-state')).toHaveText('Waiting for entry');
  await expect(row.getByTestId('bracket-stop')).toHaveText('SL-M 1,430.00 · after the entry fills');
  await row.getByRole('button', { name: 'Cancel the bracket on INFY' }).click();
  await expect(row.getByTestId('bracket-state')).toHaveText('Done: Cancelled by you');
  await page.getByRole('tab', { name: 'Orders' }).click();
  await expect(orderRow(page, entryId)).toContainText('CANCELLED');
});
