import type { Page } from '@playwright/test';
import { chooseSymbol, fillTicket, instrumentToken, openDashboard, setPrice, ticket } from './dashboard-helpers';
import { expect, test } from './fixtures';

/**
 * Baskets (docs/desk.md §Baskets): legs added from the ticket, the margin of the legs, Place all
 * with each leg's own outcome — placed, not placed, and the legs after a refusal not sent — and
 * a basket saved and loaded back after a reload.
 */

async function addLeg(page: Page, symbol: string, fill: Parameters<typeof fillTicket>[1]): Promise<void> {
  await chooseSymbol(page, symbol, new RegExp(`^${symbol} NSE`));
  await fillTicket(page, fill);
  await ticket(page)
    .getByRole('button', { name: /^Add to basket/ })
    .click();
}

test('a three-leg basket: the first leg is placed, the second refused by the broker, the third not sent; saved and loaded after a reload', async ({
  page,
  host,
}) => {
  await setPrice(host, await instrumentToken(host, 'NSE', 'INFY'), 1500);
  await openDashboard(page, host);
  await addLeg(page, 'INFY', { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '2' });
  // No ITC holdings to sell for delivery: the broker rejects it.
  await addLeg(page, 'ITC', { side: 'Sell', orderType: 'MARKET', product: 'CNC', quantity: '200' });
  await addLeg(page, 'SBIN', { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '1' });
  await expect(ticket(page).getByRole('button', { name: 'Add to basket (3)' })).toBeVisible();

  await page.getByRole('tab', { name: 'Basket' }).click();
  const legs = page.getByRole('table', { name: 'Basket legs' });
  await expect(legs.locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('basket-margin')).toHaveText(/^₹[\d,]+\.\d\d$/);

  await page.getByRole('textbox', { name: 'Basket name' }).fill('Morning');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  await page.getByRole('button', { name: 'Place all 3 legs' }).click();
  await page.getByRole('dialog', { name: 'Place 3 orders?' }).getByRole('button', { name: 'Place 3 orders' }).click();
  const outcomes = page.getByRole('list', { name: 'Legs' }).getByTestId('leg-outcome');
  await expect(outcomes).toHaveCount(3);
  await expect(outcomes.nth(0)).toHaveAttribute('data-state', 'placed');
  await expect(outcomes.nth(1)).toContainText(/REJECTED|Not placed/);
  await expect(outcomes.nth(2)).toHaveAttribute('data-state', 'not_sent');

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(legs.locator('tbody tr')).toHaveText(/Add orders from the ticket/);
  await page.reload();
  await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
  await expect(page.getByRole('combobox', { name: 'Saved baskets' })).toContainText('Morning (3)');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page.getByRole('table', { name: 'Basket legs' }).locator('tbody tr')).toHaveCount(3);
});
