import { chooseSymbol, fillTicket, openDashboard, orderRow, placeOrder } from './dashboard-helpers';
import { expect, test } from './fixtures';

/**
 * One clock on screen (docs/desk.md §One clock): against the paper market's simulated session the
 * market's clock and the machine's are hours apart; the blotter (the broker's stamps) and the
 * lifecycle (the app's own hops) must read the same clock, and the lifecycle's total must not
 * span the two.
 */

const seconds = (hms: string): number => {
  const [h, m, s] = hms.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

test('an order’s lifecycle reads the market’s clock, as the blotter does, and totals on one clock', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  await chooseSymbol(page, 'TCS', /^TCS NSE/);
  await expect(page.getByTestId('ticket-ltp')).toHaveText(/^[\d,]+\.\d+$/);
  const ltp = Number(((await page.getByTestId('ticket-ltp').textContent()) ?? '').replace(/,/g, ''));
  await fillTicket(page, {
    side: 'Buy',
    orderType: 'LIMIT',
    product: 'MIS',
    quantity: '1',
    // 5% under the market rests without filling; 20% under was below the lower circuit limit
    // (20% under the previous close) whenever the simulated market traded under its close.
    price: (Math.round(ltp * 0.95 * 20) / 20).toFixed(2),
  });
  const id = await placeOrder(page);
  const row = orderRow(page, id);
  await expect(row).toContainText('OPEN');
  const placedAt = ((await row.locator('td').first().textContent()) ?? '').trim();

  await row.getByRole('cell', { name: 'TCS' }).click();
  const history = page.getByRole('dialog', { name: new RegExp(`Order ${id}`) });
  const clicked = history.locator('[data-hop="clicked"] time');
  await expect(clicked).toHaveText(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
  const clickedAt = ((await clicked.textContent()) ?? '').slice(0, 8);
  // The click and the broker's stamp of the order are moments apart on the one clock (a minute
  // leaves room for a slow machine; the two clocks are hours apart).
  expect(Math.abs(seconds(clickedAt) - seconds(placedAt))).toBeLessThan(60);
  await expect(history.getByTestId('lifecycle-span')).toHaveText(
    /^· (\d+ ms|\d+\.\d+ s) from the click to the app's last hop$/,
  );
});
