import type { Page } from '@playwright/test';
import { expect, startHost, test, type HostHandle } from './fixtures';
import {
  chooseSymbol,
  cutStream,
  fillTicket,
  instrumentToken,
  openDashboard,
  orderRow,
  placeOrder,
  setPrice,
} from './dashboard-helpers';
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
 * Runs `body` against a host of its own: a fresh account, so no order another spec left working
 * makes the desk read fast.
 */
async function withOwnHost(body: (host: HostHandle) => Promise<void>): Promise<void> {
  const own = await startHost();
  try {
    await body(own.handle);
  } finally {
    await own.stop();
  }
}

test.describe('the polling budget', () => {
  test('with the stream live an idle desk leaves orders alone; losing the stream re-reads at once, then every second', async ({
    page,
  }) => {
    await withOwnHost(async (host) => {
      const reads = countOrderReads(page);
      await openDashboard(page, host);
      await expect(page.getByTestId('stream-state')).toHaveAttribute('data-state', 'open');
      await expect(page.getByRole('region', { name: 'Orders', exact: true }).locator('.freshness')).toHaveText(
        /(just now|ago)$/,
      );
      // 8 s: the desk re-checks every 30 s with the stream live; one still polling every second
      // (the ticket is open) would have sent eight. One read may be a late mount's first fetch.
      await expectAtMostFor('orders.sync reads with the stream live', reads, 1, 8_000);

      const before = reads();
      await cutStream(page, host);
      await expect.poll(reads, { timeout: 3_000 }).toBeGreaterThan(before);
      await expect.poll(reads, { timeout: 8_000 }).toBeGreaterThanOrEqual(before + 4);
    });
  });

  test('a working order makes the desk read orders every 2 s with the stream live, until it is cancelled', async ({
    page,
  }) => {
    await withOwnHost(async (host) => {
      const reads = countOrderReads(page);
      const tcs = await instrumentToken(host, 'NSE', 'TCS');
      await setPrice(host, tcs, 3050);
      await openDashboard(page, host);
      await expect(page.getByTestId('stream-state')).toHaveAttribute('data-state', 'open');
      await chooseSymbol(page, 'TCS', /^TCS NSE/);
      await fillTicket(page, { side: 'Buy', orderType: 'LIMIT', quantity: '1', price: '2800' });
      const id = await placeOrder(page);
      await expect(orderRow(page, id)).toContainText('OPEN');

      const working = reads();
      await expect.poll(reads, { timeout: 8_000 }).toBeGreaterThanOrEqual(working + 3);

      await orderRow(page, id)
        .getByRole('button', { name: `Cancel ${id}` })
        .click();
      await expect(orderRow(page, id)).toContainText('CANCELLED');
      // At most the cancel's own reconcile, then the 30 s cadence: 8 s would hold four reads at 2 s.
      await expectAtMostFor('orders.sync reads once nothing works', reads, 2, 8_000);
    });
  });

  test('the header shows the desk’s request rate against the limit the paper broker publishes', async ({
    page,
    host,
  }) => {
    await openDashboard(page, host);
    const meter = page.getByTestId('usage-meter');
    await expect(meter).toHaveText(/^\d+(\.\d+)? req\/s of 10$/);
    await expect(meter).toHaveAttribute(
      'title',
      /Paper broker allows 10 a second, bursts of 20 \(as it publishes in its replies\)\. Tradedesk keeps itself to 8 a second, bursts of 16\./,
    );
  });
});
