import { docShotPath, paperLogin, paperPlace } from './dashboard-helpers';
import { deskOn, expect, quietHostPerTest, test, type HostHandle } from './fixtures';

/**
 * The reconciliation drift alarm through the browser host against the paper broker
 * (docs/contract.md §Drift alarm): an order placed behind the desk's back — by another terminal
 * on the same account, straight to the broker's HTTP API — turns the header amber, the dialog
 * names it, and Acknowledge takes it off the list.
 */

const quietHost = quietHostPerTest();

/** Another terminal: its own session on the same paper account, and a resting LIMIT buy. */
async function placeBehindTheDesk(host: HostHandle): Promise<string> {
  return paperPlace(host, await paperLogin(host), {
    tradingsymbol: 'INFY',
    transaction_type: 'BUY',
    quantity: 3,
    order_type: 'LIMIT',
    price: 1400,
    product: 'MIS',
    client_order_id: 'other-terminal-1',
  });
}

test('an order placed behind the desk: the header warns, the dialog names it, Acknowledge clears it', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.setSymbolPrice('NSE', 'INFY', 1500);
  await desk.open();
  const chip = page.getByTestId('drift-chip');
  await expect(chip).toHaveText('In sync', { timeout: 15_000 });

  const orderId = await placeBehindTheDesk(desk.host);
  await chip.click();
  const dialog = page.getByRole('dialog', { name: 'Drift from the broker' });
  await dialog.getByRole('button', { name: 'Check now' }).click();
  // Seen once, it is checked again a few seconds later and raised only then (no alarm from a race).
  await expect(chip).toHaveText('Drift: 1 difference', { timeout: 20_000 });
  const row = dialog.getByRole('row', { name: new RegExp(orderId) });
  await expect(row).toContainText(`Order ${orderId} for INFY (BUY 3) was placed outside Tradedesk`);
  await expect(row).toContainText('Placed elsewhere');
  await expect(row.getByRole('cell').first()).toHaveText(/^\d\d:\d\d:\d\d$/);
  await page.screenshot({ path: docShotPath('drift-alarm.png') });

  await row.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(dialog.getByText('No differences')).toBeVisible();
  await expect(chip).toHaveText('In sync');
  // Acknowledged: a later check does not raise the same order again.
  await dialog.getByRole('button', { name: 'Check now' }).click();
  await expect(dialog.getByTestId('drift-checked')).toHaveText(/^Last compared with the broker at/);
  await expect(dialog.getByText('No differences')).toBeVisible();
  await expect(chip).toHaveText('In sync');
});

test('a check the broker does not answer is "not checked" with its time, never "in sync"; the next good check clears it', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  const chip = page.getByTestId('drift-chip');
  await expect(chip).toHaveText('In sync', { timeout: 15_000 });
  await chip.click();
  const dialog = page.getByRole('dialog', { name: 'Drift from the broker' });

  await desk.setFaults({ server_error: 1 });
  try {
    await dialog.getByRole('button', { name: 'Check now' }).click();
    await expect(dialog.getByTestId('drift-failure')).toHaveText(/^Could not check at \d\d:\d\d IST: /, {
      timeout: 20_000,
    });
    await expect(chip).toHaveText('Drift: not checked');
  } finally {
    await desk.setFaults({});
  }
  await dialog.getByRole('button', { name: 'Check now' }).click();
  await expect(dialog.getByTestId('drift-failure')).toHaveCount(0, { timeout: 20_000 });
  await expect(chip).toHaveText('In sync');
});
