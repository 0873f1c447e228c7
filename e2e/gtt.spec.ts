import type { Page } from '@playwright/test';
import { deskOn, expect, quietHostPerTest, test } from './fixtures';
import { docShotPath, paperRead, paperToken } from './dashboard-helpers';

/**
 * GTT orders through the browser host against the paper broker (docs/gtt.md): an OCO created
 * from a position row, the price moved through the paper control interface, and the GTT panel
 * showing it triggered with the order it placed and the other leg done; a single GTT from the
 * ticket, refused then created, and cancelled. Each test gets its own quiet host.
 */

const quietHost = quietHostPerTest();

const gttPanel = (page: Page) => page.getByRole('table', { name: 'GTT' });
const gttDialog = (page: Page) => page.getByRole('dialog', { name: /GTT · INFY NSE/ });

/** Creates the GTT the open dialog holds, closes the dialog and finds it active on the GTT tab; returns its id. */
async function createGtt(page: Page): Promise<string> {
  const dialog = gttDialog(page);
  await dialog.getByRole('button', { name: 'Create GTT' }).click();
  await expect(dialog.getByTestId('gtt-outcome')).toHaveText(/^GTT \d+ created$/);
  const gttId = /GTT (\d+) created/.exec((await dialog.getByTestId('gtt-outcome').textContent()) ?? '')?.[1] ?? '';
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('tab', { name: 'GTT' }).click();
  await expect(gttPanel(page).getByTestId(`gtt-status-${gttId}`)).toHaveText('active');
  return gttId;
}

test('an OCO from a position row: created around the LTP, triggered at the target with its order id, the stop-loss done', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  const infy = await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '5' });
  await desk.placeOrder();

  await page.getByRole('button', { name: 'GTT INFY MIS' }).click();
  const dialog = gttDialog(page);
  await expect(dialog.getByLabel('Type')).toHaveValue('oco');
  await expect(dialog.getByLabel('Side')).toHaveValue('SELL');
  await expect(dialog.getByLabel('Quantity')).toHaveValue('5');
  await expect(dialog.getByLabel('Stop-loss trigger')).toHaveValue('1470');
  await expect(dialog.getByLabel('Target trigger')).toHaveValue('1530');
  await expect(dialog.getByTestId('gtt-distance-1')).toHaveText('+2.00%');
  await page.screenshot({ path: docShotPath('gtt-oco-dialog.png') });
  const gttId = await createGtt(page);

  await desk.setPrice(infy, 1530);
  await expect(gttPanel(page).getByTestId(`gtt-status-${gttId}`)).toHaveText('triggered');
  const orders = gttPanel(page).getByTestId(`gtt-orders-${gttId}`);
  await expect(orders).toContainText('SL: done');
  await expect(orders).toContainText(/T: order \d+/);
  await page.screenshot({ path: docShotPath('gtt-panel.png') });
  const orderId = /T: order (\d+)/.exec((await orders.textContent()) ?? '')?.[1] ?? '';
  // The order is the broker's, on its order book like any other.
  const token = await paperToken(desk.host);
  const o = await paperRead<{ order: { transaction_type: string; quantity: number; price: number } }>(
    desk.host,
    token,
    `/orders/${orderId}`,
  );
  expect(o.order).toMatchObject({ transaction_type: 'SELL', quantity: 5, price: 1530 });
});

test('a single GTT from the ticket: a trigger at the LTP is refused on its field, a moved one is created, and Cancel cancels it', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  const infy = await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: '1500' });
  await desk.ticket.getByRole('button', { name: 'GTT…' }).click();
  const dialog = gttDialog(page);
  await expect(dialog.getByLabel('Type')).toHaveValue('single');
  await dialog.getByRole('button', { name: 'Create GTT' }).click();
  await expect(dialog.getByText(/is the last price: it would fire at once/)).toBeVisible();
  await dialog.getByLabel('Trigger', { exact: true }).fill('1450');
  await dialog.getByLabel('Limit price').fill('1450');
  await expect(dialog.getByTestId('gtt-distance-0')).toHaveText('-3.33%');
  const gttId = await createGtt(page);
  await gttPanel(page)
    .getByRole('button', { name: `Cancel GTT ${gttId}` })
    .click();
  await expect(gttPanel(page).getByTestId(`gtt-status-${gttId}`)).toHaveText('cancelled');
  await desk.setPrice(infy, 1440);
  const token = await paperToken(desk.host);
  const list = await paperRead<{ gtts: Array<{ gtt_id: string; status: string }> }>(desk.host, token, '/gtt');
  expect(list.gtts.find((g) => g.gtt_id === gttId)?.status).toBe('cancelled');
});

test('a create whose reply is lost is "not yet confirmed", never failed, and the GTT list then shows the one GTT it made', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '1450' });
  await desk.ticket.getByRole('button', { name: 'GTT…' }).click();
  const dialog = gttDialog(page);
  // The ticket's live price is main's too: from here on every reply the broker sends is lost.
  await expect(dialog.getByTestId('gtt-distance-0')).toHaveText('-3.33%');
  await desk.setFaults({ drop_reply: 1 });
  await dialog.getByRole('button', { name: 'Create GTT' }).click();
  const outcome = dialog.getByTestId('gtt-outcome');
  await expect(outcome).toContainText('Not yet confirmed');
  await expect(outcome).toContainText('check the GTT list before creating it again');
  await desk.setFaults({});
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('tab', { name: 'GTT' }).click();
  await expect(gttPanel(page).locator('tr[data-testid^="gtt-row-"]')).toHaveCount(1);
  await expect(gttPanel(page).getByText('active')).toBeVisible();
  const token = await paperToken(desk.host);
  const list = await paperRead<{ gtts: Array<{ status: string }> }>(desk.host, token, '/gtt');
  expect(list.gtts.map((g) => g.status)).toEqual(['active']);
});
