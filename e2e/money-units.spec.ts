import { deskOn, expect, quietHostPerFile, test } from './fixtures';

/**
 * Money on every tick grid, end to end: a currency future on its ₹0.0025 tick through the real
 * renderer, the browser host's services and the paper broker (docs/api.md §Numbers and money
 * units).
 */

/** A host whose paper market moves only when the test moves it, so fill prices are known. */
const quietHost = quietHostPerFile();

test('a CDS future trades on its ₹0.0025 tick: off-tick prices name their neighbours, fills and P&L keep every digit', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  await desk.chooseSymbol('USDINR', /^USDINR \d+ [A-Z][a-z]{2}( \d{4})? FUT CDS/);
  const t = desk.ticket;
  const symbol = await t.getByRole('combobox', { name: 'Symbol' }).inputValue();
  const token = await desk.instrumentToken('CDS', symbol);
  await desk.setPrice(token, 83.2525);
  await expect(t.getByTestId('ticket-ltp')).toHaveText('83.2525');

  // An off-tick price stays as typed and says which prices are valid; nothing can be placed.
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'NRML', quantity: '1', price: '83.2537' });
  const price = t.getByLabel('Price', { exact: true });
  await price.blur();
  await expect(price).toHaveValue('83.2537');
  await expect(price).toHaveAccessibleDescription('₹83.2537 is off the ₹0.0025 tick — use ₹83.2525 or ₹83.2550');
  await expect(t.getByRole('button', { name: 'Place order' })).toBeDisabled();

  await desk.fillTicket({ price: '83.25' });
  const id = await desk.placeOrder();
  await expect(desk.orderRow(id)).toContainText('OPEN');
  await expect(desk.orderRow(id)).toContainText('83.2500');

  // Filled at 83.25, marked at 83.2525: one tick on a lot of USD 1,000 is ₹2.50.
  await desk.setPrice(token, 83.25);
  await expect(desk.orderRow(id)).toContainText('COMPLETE');
  await desk.setPrice(token, 83.2525);
  const positions = page.getByRole('table', { name: 'Positions' });
  await expect(positions.getByTestId(`pos-ltp-${symbol}`)).toHaveText('83.2525');
  await expect(positions.getByTestId(`pos-pnl-${symbol}`)).toHaveText('+₹2.50');
});
