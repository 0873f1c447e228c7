import { docShotPath } from './dashboard-helpers';
import { deskOn, expect, quietHostPerTest, test } from './fixtures';

/**
 * Alerts that place orders through the browser host against the paper broker (docs/desk.md
 * §Alerts): an order attached in the dialog, placed when the alert fires, judged by the risk guard
 * then; the outcome on the alert and in a toast.
 */

const quietHost = quietHostPerTest();

test('an alert places its order when it fires, another is refused by a limit set after it was made; each says so', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  const infy = await desk.setSymbolPrice('NSE', 'INFY', 1500);
  await desk.open();
  await page.getByTestId('alerts-button').click();
  const dialog = page.getByRole('dialog', { name: 'Price alerts' });
  await expect(dialog.getByRole('button', { name: 'Add alert' })).toBeEnabled();

  // A bad quantity is refused in the dialog, naming the field.
  await dialog.getByLabel('Alert symbol').fill('INFY NSE');
  await dialog.getByLabel('Alert condition').selectOption('crosses_up');
  await dialog.getByLabel('Alert price').fill('1510');
  await dialog.getByLabel('Places', { exact: true }).selectOption('order');
  await dialog.getByLabel('Order quantity').fill('2.5');
  await dialog.getByRole('button', { name: 'Add alert' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Quantity: enter a whole number above zero');

  await dialog.getByLabel('Order quantity').fill('10');
  await dialog.getByRole('button', { name: 'Add alert' }).click();
  const buying = dialog.getByRole('row', { name: /INFY crosses above 1,510\.00/ });
  await expect(buying).toContainText('BUY 10 INFY MARKET');

  // A second alert, fine when made (50 shares), refused when it fires by a hard limit set afterwards.
  await dialog.getByLabel('Alert condition').selectOption('above');
  await dialog.getByLabel('Alert price').fill('1520');
  await dialog.getByLabel('Places', { exact: true }).selectOption('order');
  await dialog.getByLabel('Order quantity').fill('50');
  await dialog.getByRole('button', { name: 'Add alert' }).click();
  const refused = dialog.getByRole('row', { name: /INFY above 1,520\.00/ });
  await expect(refused).toContainText('BUY 50 INFY MARKET');
  // One on a study, to show the conditions beyond price.
  await dialog.getByLabel('Alert watches').selectOption('ema');
  await dialog.getByLabel('Alert condition').selectOption('crosses_down');
  await dialog.getByLabel('Places', { exact: true }).selectOption('nothing');
  await dialog.getByRole('button', { name: 'Add alert' }).click();
  await expect(dialog.getByRole('row', { name: /INFY crosses below EMA 20 \(5 min\)/ })).toContainText('Armed');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await desk.setLimits({ 'Max quantity': { value: '20', hard: true } });
  await desk.setPrice(infy, 1512);
  await expect(page.getByLabel('Notifications')).toContainText('Alert orders placed: INFY crosses above 1,510.00');
  await expect(desk.blotter.locator('tr[data-order-id]')).toHaveCount(1);
  await desk.setPrice(infy, 1521);
  await expect(page.getByLabel('Notifications')).toContainText('Alert orders refused: INFY above 1,520.00');
  await expect(desk.blotter.locator('tr[data-order-id]')).toHaveCount(1);

  await page.getByTestId('alerts-button').click();
  await expect(buying.locator('[data-outcome]')).toHaveText(/^Placed: Order placed$/);
  await expect(refused.locator('[data-outcome]')).toHaveText(
    'Refused: Not placed: Quantity 50 exceeds your limit of 20',
  );
  await page.screenshot({ path: docShotPath('alert-orders.png') });
});
