import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { fillTicket, openOnInfy, placeOrder, setPrice } from './dashboard-helpers';
import { expect, startHost, test } from './fixtures';

/**
 * The desk a professional expects (docs/desk.md): the trade book with the day's summary, and the
 * books exported as CSV files, in Chromium against the real services and the paper broker.
 */

/** Clicks a panel's CSV button and returns the downloaded file's name and text. */
async function exportCsv(page: Page, book: string): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Export ${book} as CSV` }).click();
  const file = await download;
  const path = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** The CSV's data lines as cells (the desk's files quote nothing in these columns). */
const lines = (csv: string): string[][] =>
  csv
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));

test('a round trip shows both fills in the trade book with the day summed, and each book exports as CSV', async ({
  page,
}) => {
  const own = await startHost(); // a fresh account: the day's figures are this test's alone
  try {
    const infy = await openOnInfy(page, own.handle);
    await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '10' });
    const buyId = await placeOrder(page);
    await setPrice(own.handle, infy, 1510);
    await fillTicket(page, { side: 'Sell', orderType: 'MARKET', product: 'MIS', quantity: '10' });
    const sellId = await placeOrder(page);
    await expect(page.getByRole('form', { name: 'Order ticket' }).getByTestId('ticket-order-status')).toHaveText(
      'COMPLETE',
    );

    await page.getByRole('tab', { name: 'Trades' }).click();
    const trades = page.getByRole('table', { name: 'Trades' });
    await expect(trades.getByRole('row').filter({ hasText: buyId })).toContainText(/BUY\s*10/);
    await expect(trades.getByRole('row').filter({ hasText: sellId })).toContainText(/SELL\s*10/);

    // The file holds the same two fills, oldest first, each with its order id.
    const tradesFile = await exportCsv(page, 'trades');
    expect(tradesFile.name).toMatch(/^tradedesk-trades-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...fills] = lines(tradesFile.text);
    expect(header).toEqual([
      'filled_at',
      'trade_id',
      'order_id',
      'exchange',
      'tradingsymbol',
      'side',
      'product',
      'quantity',
      'price',
    ]);
    expect(fills.map((f) => [f[2], f[5], f[7]])).toEqual([
      [buyId, 'BUY', '10'],
      [sellId, 'SELL', '10'],
    ]);
    // The summary's turnover is what the broker's fills in the file add up to, both sides.
    const turnover = fills.reduce((sum, f) => sum + Number(f[7]) * Number(f[8]), 0);
    const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(turnover);
    await expect(page.getByTestId('day-turnover')).toHaveText(rupees);
    await expect(page.getByTestId('day-charges')).toHaveText(/^₹\d+\.\d\d$/);
    // Flat again: realised is the whole P&L of the round trip, as the Positions panel shows it.
    // Two panels on two reads of the broker: compared once both have caught up with the exit.
    await expect(async () => {
      const realised = (await page.getByTestId('pos-pnl-INFY').textContent()) ?? '';
      expect(realised).toMatch(/\d/);
      expect(await page.getByTestId('day-realised').textContent()).toBe(realised);
    }).toPass();

    await page.getByRole('tab', { name: 'Orders' }).click();
    const orders = lines((await exportCsv(page, 'orders')).text);
    expect(orders[0]?.slice(0, 2)).toEqual(['placed_at', 'order_id']);
    expect(orders.slice(1).map((o) => [o[1], o[17]])).toEqual([
      [buyId, 'COMPLETE'],
      [sellId, 'COMPLETE'],
    ]);
    const positions = lines((await exportCsv(page, 'positions')).text);
    expect(positions.slice(1).map((p) => [p[1], p[2], p[3]])).toEqual([['INFY', 'MIS', '0']]);
  } finally {
    await own.stop();
  }
});
