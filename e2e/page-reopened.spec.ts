import { deskOn, expect, quietHostPerFile, test } from './fixtures';

/**
 * A page opened while main already streams its instruments (a reload, the desk opened again):
 * on a quiet market nothing moves, so the broker sends no tick, and main already holds the
 * stream's subscription, so the broker sends no snapshot either. Main answers the page's
 * subscription with the last tick it holds (docs/live-data.md §The first screen first).
 */

const quietHost = quietHostPerFile();

test('a desk opened again shows the last prices main holds, live, without waiting for a tick', async ({ browser }) => {
  const first = await browser.newPage();
  await deskOn(first, quietHost()).open();
  await expect(first.getByTestId('ltp-SBIN')).toHaveAttribute('data-quote', 'live');
  await first.close();

  const again = await browser.newPage();
  try {
    await deskOn(again, quietHost()).open();
    await expect(again.getByTestId('ltp-SBIN')).toHaveAttribute('data-quote', 'live');
  } finally {
    await again.close();
  }
});
