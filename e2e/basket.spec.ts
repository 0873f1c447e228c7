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

/** A figure such as ₹12,345.60 as a number. */
const rupees = (text: string | null): number => Number((text ?? '').replace(/[^\d.]/g, ''));

test('a bull call spread from the option chain in two clicks: two legs in the basket, its margin less than before hedging', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  await page.getByRole('tab', { name: 'Option chain' }).click();
  const chain = page.getByRole('table', { name: 'Option chain' });
  await expect(chain.locator('tr.is-atm')).toHaveCount(1);
  const atm = chain.locator('tr.is-atm');
  const higher = chain.locator('tr.is-atm + tr[data-strike], tr.is-atm + tr.chain__spot + tr[data-strike]').first();
  await atm.getByRole('button', { name: /^Add BUY \S+CE to basket$/ }).click();
  await higher.getByRole('button', { name: /^Add SELL \S+CE to basket$/ }).click();

  await page.getByRole('tab', { name: 'Basket' }).click();
  const legs = page.getByRole('table', { name: 'Basket legs' }).locator('tbody tr');
  await expect(legs).toHaveCount(2);
  await expect(legs.nth(0)).toContainText(/CE NFO\s*BUY\s*\d+\s*LIMIT/);
  await expect(legs.nth(1)).toContainText(/CE NFO\s*SELL\s*\d+\s*LIMIT/);

  const summary = page.getByTestId('basket-margin-summary');
  await expect(summary).toHaveAttribute('data-state', 'fresh');
  await expect(summary).toHaveText(/^Margin ₹[\d,]+\.\d\d \(₹[\d,]+\.\d\d before hedging\)$/);
  const hedged = rupees(await page.getByTestId('basket-margin').textContent());
  const before = rupees(await page.getByTestId('basket-margin-before').textContent());
  expect(hedged).toBeGreaterThan(0);
  expect(hedged).toBeLessThan(before);
  // Each leg's own margin is shown, and they add up to the figure before hedging.
  const perLeg = await page.getByTestId('leg-margin').allTextContents();
  expect(perLeg.map(rupees).reduce((a, b) => a + b, 0)).toBeCloseTo(before, 2);

  // Removing the short leg removes the hedge: the figure is asked again and equals its sum.
  await page.getByRole('button', { name: 'Remove leg 2' }).click();
  await expect(legs).toHaveCount(1);
  await expect(async () => {
    expect(await summary.getAttribute('data-state')).toBe('fresh');
    const leg = await page.getByTestId('leg-margin').first().textContent();
    expect(leg).toMatch(/^₹/);
    expect(await page.getByTestId('basket-margin').textContent()).toBe(leg);
    expect(await page.getByTestId('basket-margin-before').textContent()).toContain(leg);
  }).toPass();
});
