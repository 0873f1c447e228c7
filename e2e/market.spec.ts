import type { Locator, Page } from '@playwright/test';
import { controlHeaders } from './dashboard-helpers';
import { deskOn, expect, quietHostPerFile, startHost, test } from './fixtures';

/**
 * A market a trader recognises, through the real renderer and the real paper market: the depth
 * ladder and pricing the ticket from it, a MARKET order that walks the book, an order refused
 * outside market hours with an after-market order offered in its place, and an option bought
 * from the chain in legs above its freeze limit.
 */

/** A host whose paper market moves only when a test moves it (the book stays where it was built). */
const quietHost = quietHostPerFile();

const ladder = (page: Page): Locator => page.getByRole('table', { name: 'Market depth' });

/** A price as the ladder prints it ("1,500.05") as a number. */
const price = (text: string | null): number => Number((text ?? '').replace(/,/g, ''));

/** Selects a watchlist row: the ladder follows the selected instrument. */
async function select(page: Page, symbol: string): Promise<void> {
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }).click();
  await expect(page.getByTestId('depth-instrument')).toContainText(symbol);
}

/** The ladder's level k (1 = best) on one side: its price button and its quantity cell. */
function level(page: Page, side: 'bid' | 'offer', k: number): { price: Locator; quantity: Locator } {
  const row = ladder(page)
    .locator('tbody tr')
    .nth(k - 1);
  return {
    price: row.locator(`.depth__price--${side} button`),
    quantity: row.locator(`.depth__qty--${side}`),
  };
}

test('the depth ladder shows five bids and offers of the selected instrument, and a click on a level prices the ticket there', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.setSymbolPrice('NSE', 'INFY', 1_500);
  await desk.open();
  await select(page, 'INFY');

  // Five levels a side, a tick apart around 1,500 (INFY trades in F&O: a one-tick half-spread).
  await expect(level(page, 'offer', 1).price).toHaveText('1,500.05');
  await expect(level(page, 'bid', 1).price).toHaveText('1,499.95');
  await expect(level(page, 'offer', 5).price).toHaveText('1,500.25');
  await expect(level(page, 'bid', 5).price).toHaveText('1,499.75');
  await expect(page.getByRole('region', { name: 'Depth' }).getByTestId('spread')).toHaveText('Spread 0.10 (2 ticks)');
  expect(Number((await ladder(page).getByTestId('depth-total-buy').textContent())?.replace(/,/g, ''))).toBeGreaterThan(
    0,
  );

  // Each level moves with the market: a new price rebuilds the book around it.
  await desk.setSymbolPrice('NSE', 'INFY', 1_510);
  await expect(level(page, 'offer', 1).price).toHaveText('1,510.05');

  await level(page, 'offer', 3).price.click();
  const t = desk.ticket;
  await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue('INFY');
  await expect(t.getByLabel('Order type')).toHaveValue('LIMIT');
  await expect(t.getByLabel('Price', { exact: true })).toHaveValue('1510.15');
  await expect(t.getByTestId('spread')).toHaveText('Spread 0.10 (2 ticks)');
});

test('a MARKET order larger than the best offer fills at a worse average price than the best offer', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.setSymbolPrice('NSE', 'SBIN', 880);
  await desk.open();
  await select(page, 'SBIN');
  await expect(level(page, 'offer', 1).price).toHaveText('880.05');
  await expect(level(page, 'offer', 2).price).toHaveText('880.10');
  const bestOffer = price(await level(page, 'offer', 1).price.textContent());
  // All of the best offer and all of the next: half the order at each price, roughly.
  const quantity =
    price(await level(page, 'offer', 1).quantity.textContent()) +
    price(await level(page, 'offer', 2).quantity.textContent());

  await page.keyboard.press('F1');
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: String(quantity) });
  // The ticket says before sending that it takes more than the best level.
  await expect(desk.ticket.getByTestId('ticket-depth-walk')).toContainText('Takes 2 levels (to 880.10)');
  const id = await desk.placeOrder();
  await expect(desk.ticket.getByTestId('ticket-order-status')).toHaveText('COMPLETE');

  // The ticket hears of the fill from the placement; the blotter row from the next order sync,
  // moments later. Its average is read once the row itself shows the order filled.
  const row = desk.orderRow(id);
  await expect(row).toContainText(`${quantity.toLocaleString('en-IN')}/${quantity.toLocaleString('en-IN')}`);
  await expect(row).toContainText('COMPLETE');
  const avg = price(await row.locator('td').nth(9).textContent());
  expect(avg).toBeGreaterThan(bestOffer);
  expect(avg).toBeLessThan(880.1);
  // The next order meets a book that has moved up: what the first took stays taken.
  await expect(level(page, 'offer', 1).price).toHaveText('880.15');
});

test('outside market hours a regular order is refused with the reason, and placed as an AMO it waits for the open and is released there', async ({
  page,
}) => {
  // Monday 23 Nov 2026, 20:00 IST: NSE closed after hours; Tuesday is a holiday (Guru Nanak Jayanti).
  const own = await startHost(['--paper-tick-ms', '0', '--paper-clock', '2026-11-23T20:00:00+05:30']);
  try {
    const desk = deskOn(page, own.handle);
    await desk.open();
    await expect(page.getByTestId('market-phase')).toHaveText('NSE closed (After hours) · opens 09:15 Wed 25 Nov');
    await select(page, 'INFY');
    await page.keyboard.press('F1');
    const t = desk.ticket;
    await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'CNC', quantity: '2' });
    const hours = t.getByRole('group', { name: 'Market hours' });
    await expect(hours).toContainText('Outside market hours — NSE closed (After hours)');
    await expect(hours).toContainText('Place as AMO?');

    // Placed as a regular order anyway: refused, nothing created, the broker's reason shown.
    await t.getByRole('button', { name: 'Place order' }).click();
    await expect(t.getByTestId('ticket-outcome')).toHaveText('Not placed — see After-market order');
    await expect(t.getByTestId('variety-refusal')).toContainText('NSE is closed');
    await expect(desk.blotter.locator('tr[data-order-id]')).toHaveCount(0);

    await t.getByRole('button', { name: 'Place as AMO' }).click();
    await expect(t.getByTestId('ticket-order-status')).toHaveText('AMO REQ RECEIVED');
    const id = (await t.getByTestId('ticket-order-id').textContent()) ?? '';
    await expect(desk.orderRow(id)).toContainText('AMO REQ RECEIVED');
    await expect(desk.blotter.locator('tr[data-order-id]')).toHaveCount(1);

    // The market clock reaches Wednesday's open: the AMO is released and fills.
    const res = await fetch(`${own.handle.paperUrl}/_control/clock`, {
      method: 'POST',
      headers: controlHeaders(own.handle),
      body: JSON.stringify({ at: '2026-11-25T09:15:05+05:30' }),
    });
    expect(res.status).toBe(200);
    await expect(desk.orderRow(id)).toContainText('COMPLETE');
  } finally {
    await own.stop();
  }
});

test('an option bought from the chain above its freeze limit goes in as legs, each placed once', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  await page.getByRole('tab', { name: 'Option chain' }).click();
  const chain = page.getByRole('table', { name: 'Option chain' });
  await expect(chain.locator('tr.is-atm')).toHaveCount(1);
  // The cheapest call shown: the highest strike.
  const call = chain.locator('tbody tr[data-strike]').last().locator('.chain__ltp button').first();
  const symbol = ((await call.getAttribute('aria-label')) ?? '').replace(/^Trade /, '');
  await call.click();

  const t = desk.ticket;
  await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue(symbol);
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'NRML', quantity: '3600' });
  const offer = t.getByRole('group', { name: 'Freeze limit' });
  await expect(offer).toContainText('Quantity 3,600 is above the freeze limit of 1,800 — place as 2 legs?');
  await offer.getByRole('button', { name: 'Place as 2 legs' }).click();

  const legs = t.getByTestId('leg-outcome');
  await expect(legs).toHaveCount(2);
  await expect(legs.nth(0)).toContainText(/Leg 1 of 2 · 1,800 Order \d+ · COMPLETE/);
  await expect(legs.nth(1)).toContainText(/Leg 2 of 2 · 1,800 Order \d+ · COMPLETE/);
  const rows = desk.blotter.locator('tr[data-order-id]').filter({ hasText: symbol });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('1,800/1,800');
  await expect(rows.nth(1)).toContainText('1,800/1,800');
});
