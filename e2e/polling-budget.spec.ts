import type { Page } from '@playwright/test';
import { deskOn, expect, startHost, test, type Desk } from './fixtures';
import { expectAtMostFor } from './negative-checks';

/**
 * The polling budget (docs/live-data.md §The cadence): with a live stream the desk leaves the
 * broker alone and reconciles slowly; without one, or while an order works, it reads fast again.
 * Counted where the renderer asks main for a broker read: the bridge's `orders.sync` frames (each one read of the broker by main's order book).
 */

/** Counts the page's `orders.sync` calls over the bridge. */
function countOrderReads(page: Page): () => number {
  let n = 0;
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"channel":"orders.sync"')) n += 1;
    });
  });
  return () => n;
}

/**
 * Runs `body` on the desk in `page` against a host of its own: a fresh account, so no order
 * another spec left working makes the desk read fast.
 */
async function withOwnDesk(page: Page, body: (desk: Desk) => Promise<void>): Promise<void> {
  const own = await startHost();
  try {
    await body(deskOn(page, own.handle));
  } finally {
    await own.stop();
  }
}

test.describe('the polling budget', () => {
  test('with the stream live an idle desk leaves orders alone; losing the stream re-reads at once, then every second', async ({
    page,
  }) => {
    await withOwnDesk(page, async (desk) => {
      const reads = countOrderReads(page);
      await desk.open();
      await expect(page.getByTestId('stream-state')).toHaveAttribute('data-state', 'open');
      await expect(page.getByRole('region', { name: 'Orders', exact: true }).locator('.freshness')).toHaveText(
        /(just now|ago)$/,
      );
      // 8 s: the desk re-checks every 30 s with the stream live; one still polling every second
      // (the ticket is open) would have sent eight. One read may be a late mount's first fetch.
      await expectAtMostFor('orders.sync reads with the stream live', reads, 1, 8_000);

      const before = reads();
      await desk.cutStream();
      await expect.poll(reads, { timeout: 3_000 }).toBeGreaterThan(before);
      await expect.poll(reads, { timeout: 8_000 }).toBeGreaterThanOrEqual(before + 4);
    });
  });

  test('a working order makes the desk read orders every 2 s with the stream live, until it is cancelled', async ({
    page,
  }) => {
    await withOwnDesk(page, async (desk) => {
      const reads = countOrderReads(page);
      await desk.setSymbolPrice('NSE', 'TCS', 3050);
      await desk.open();
      await expect(page.getByTestId('stream-state')).toHaveAttribute('data-state', 'open');
      await desk.chooseSymbol('TCS', /^TCS NSE/);
      await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', quantity: '1', price: '2800' });
      const id = await desk.placeOrder();
      await expect(desk.orderRow(id)).toContainText('OPEN');

      const working = reads();
      await expect.poll(reads, { timeout: 8_000 }).toBeGreaterThanOrEqual(working + 3);

      await desk
        .orderRow(id)
        .getByRole('button', { name: `Cancel ${id}` })
        .click();
      await expect(desk.orderRow(id)).toContainText('CANCELLED');
      // At most the cancel's own reconcile, then the 30 s cadence: 8 s would hold four reads at 2 s.
      await expectAtMostFor('orders.sync reads once nothing works', reads, 2, 8_000);
    });
  });

  test('the header shows the desk’s request rate against the limit the paper broker publishes', async ({
    page,
    desk,
  }) => {
    await desk.open();
    const meter = page.getByTestId('usage-meter');
    await expect(meter).toHaveText(/^\d+(\.\d+)? req\/s of 10$/);
    await expect(meter).toHaveAttribute(
      'title',
      /Paper broker allows 10 a second, bursts of 20 \(as it publishes in its replies\)\. Tradedesk keeps itself to 8 a second, bursts of 16\./,
    );
  });
});
