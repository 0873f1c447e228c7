import { expect, test } from './fixtures';
import { cutStream, docShotPath, fillTicket, openOnInfy, orderRow, placeOrder, setFaults } from './dashboard-helpers';

/**
 * A cancel main cannot confirm says so where it started — the blotter's row — and is settled by
 * reading the order back, never "Cancel failed" (docs/contract.md §Modify and cancel answer
 * honestly). The broker's replies are held off (every reply lost) until the test lets them through.
 */
test('a cancel whose replies are lost is "Not yet confirmed — checking" in its row, then Cancelled', async ({
  page,
  host,
}) => {
  await openOnInfy(page, host, 1500);
  await fillTicket(page, { side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: '1400' });
  const id = await placeOrder(page);
  const row = orderRow(page, id);
  await expect(row).toContainText('OPEN');
  // Nothing pushes the order's end to the desk: only reading it back can tell.
  await cutStream(page, host);

  await setFaults(host, { drop_reply: 1 });
  await row.getByRole('button', { name: `Cancel ${id}` }).click();
  const answer = row.getByTestId('row-answer');
  await expect(answer).toHaveText('Not yet confirmed — checking', { timeout: 30_000 });
  await expect(page.getByTestId('cancel-answer')).toHaveText(
    `Order ${id}: Not yet confirmed — checking with the broker whether order ${id} was cancelled…`,
  );
  await expect(page.getByText(/cancel failed/i)).toHaveCount(0);
  await page.locator('section', { has: row }).screenshot({ path: docShotPath('cancel-not-yet-confirmed.png') });

  // The replies come through again: main reads the order back and it was cancelled.
  await setFaults(host, {});
  await expect(answer).toHaveText('Cancelled', { timeout: 30_000 });
  await expect(row).toContainText('CANCELLED', { timeout: 30_000 });
});
