import { expectAccessible } from './axe';
import { expect, quietHostPerTest, test } from './fixtures';
import { docShotPath, fillTicket, netQty, openOnInfy, placeOrder, setPrice } from './dashboard-helpers';

/**
 * The MTM stop and target through the browser host against the paper broker (docs/desk.md §MTM
 * stop and target): the levels set in the header's dialog, the day's MTM on the header's bar, a
 * paper price move past the stop, main's kill switch run, and the header's words after it.
 */

const quietHost = quietHostPerTest();

test('an MTM stop set in the header fires on a paper price move: flattened once, and the header says why and at what figure', async ({
  page,
}) => {
  const host = quietHost();
  const infy = await openOnInfy(page, host);
  await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '100' });
  await placeOrder(page);
  await expect(netQty(page, 'INFY')).toHaveText('+100');

  const mtm = page.getByTestId('mtm-header');
  await expect(mtm).toHaveAttribute('data-state', 'off');
  await page.getByTestId('mtm-button').click();
  const dialog = page.getByRole('dialog', { name: 'MTM stop and target' });
  await dialog.getByLabel('Stop: flatten at a loss of', { exact: true }).fill('2000');
  await dialog.getByLabel('Target: flatten at a gain of', { exact: true }).fill('5000');
  await dialog.getByRole('checkbox', { name: 'Hard (run at once)' }).check();
  await expectAccessible(page, 'the MTM stop and target dialog', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Save levels' }).click();
  await expect(dialog).toBeHidden();

  await setPrice(host, infy, 1490); // −₹1,000 on the 100 held: inside the levels
  await expect(mtm).toHaveAttribute('data-state', 'watching');
  await expect(mtm).toContainText(/MTM −₹1,00\d(?!\d)/); // the MARKET buy filled a paisa or so above 1,500
  await expect(mtm.getByRole('meter', { name: 'MTM between stop and target' })).toBeVisible();
  await page.locator('header.topbar').screenshot({ path: docShotPath('mtm-header-watching.png') });
  await expectAccessible(page, 'the header with the MTM bar', 'header.topbar');

  await setPrice(host, infy, 1475); // −₹2,500: past the stop
  await expect(mtm).toHaveAttribute('data-state', 'fired');
  await expect(mtm).toContainText(/Flattened at \d\d:\d\d:\d\d by MTM stop −₹2,50\d(?!\d)/);
  await expect(netQty(page, 'INFY')).toHaveText('0');
  await page.locator('header.topbar').screenshot({ path: docShotPath('mtm-header-flattened.png') });
});
