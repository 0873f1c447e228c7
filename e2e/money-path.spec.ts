import type { Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type HostHandle } from './fixtures';
import {
  chooseSymbol,
  cutStream,
  fillTicket,
  instrumentToken,
  openDashboard,
  paperRead,
  paperToken,
  holdReplies,
  setFaults,
  setPrice,
  setStreamAccepting,
  ticket,
} from './dashboard-helpers';
import { freshDataDir, launchHost, openFrontDoor } from './restartable-host';

/**
 * The money path end to end (docs/money-path.md, "The money path on screen"): the ticket never
 * says an order failed unless nothing was created, an unconfirmed order stays visible until it
 * settles, and a bridge call whose caller was answered is never sent afterwards.
 */

/** The broker's orders, read through its REST API with the app's own session (test code only). */
async function brokerOrders(host: HostHandle): Promise<Array<{ order_id: string; client_order_id: string | null }>> {
  const token = await paperToken(host);
  const body = await paperRead<{ orders: Array<{ order_id: string; client_order_id: string | null }> }>(
    host,
    token,
    '/orders',
  );
  return body.orders;
}

/**
 * Watches the page's bridge sockets: how many are open, how many `orders.place` messages they
 * carried, and the request id of the last one.
 */
function watchBridge(page: Page): {
  placeMessages: () => number;
  openSockets: () => number;
  lastRequestId: () => string;
} {
  let sent = 0;
  let open = 0;
  let requestId = '';
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/bridge')) return;
    open++;
    ws.on('close', () => open--);
    ws.on('framesent', (frame) => {
      if (typeof frame.payload !== 'string' || !frame.payload.includes('"channel":"orders.place"')) return;
      sent++;
      requestId = (JSON.parse(frame.payload) as { payload: { requestId: string } }).payload.requestId;
    });
  });
  return { placeMessages: () => sent, openSockets: () => open, lastRequestId: () => requestId };
}

/** True once main's intents ledger in `dataDir` holds an intent with this request id (it is on disk). */
function journaled(dataDir: string, requestId: string): boolean {
  return readdirSync(dataDir)
    .filter((f) => /^intents-.*\.jsonl$/.test(f))
    .some((f) => readFileSync(join(dataDir, f), 'utf8').includes(`"${requestId}"`));
}

async function readyInfyTicket(page: Page, quantity: string): Promise<void> {
  await chooseSymbol(page, 'INFY', /^INFY NSE/);
  await fillTicket(page, { side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity });
  await expect(ticket(page).getByTestId('margin-required')).toHaveText(/₹/);
}

test.describe('the money path tells the truth', () => {
  test('every reply dropped and the stream down: "not yet confirmed" with the reference and a badge; faults cleared: exactly one order, and the ticket shows its id', async ({
    page,
    host,
  }) => {
    test.setTimeout(120_000);
    const infy = await instrumentToken(host, 'NSE', 'INFY');
    await setPrice(host, infy, 1500);
    await openDashboard(page, host);
    await readyInfyTicket(page, '7');
    const before = (await brokerOrders(host)).length;

    // With the stream up, its push of the new order would settle it at once (docs/contract.md,
    // Exactly-once orders): this is the case where main has nothing to go on.
    await cutStream(page, host);
    await setFaults(host, { drop_reply: 1 });
    try {
      await ticket(page).getByRole('button', { name: 'Place order' }).click();
      const outcome = ticket(page).getByTestId('ticket-outcome');
      // Main answers "unconfirmed" once its time bound passes without a readable reply.
      await expect(outcome).toHaveAttribute('data-state', 'unconfirmed', { timeout: 60_000 });
      await expect(outcome).toContainText(/Not yet confirmed\s*Checking with the broker whether order td-\S+ exists…/);
      await expect(outcome).not.toContainText(/not placed|failed/i);
      await expect(page.getByTestId('unconfirmed-badge')).toHaveText('1 unconfirmed');
      const reference = (await ticket(page).getByTestId('ticket-reference').textContent()) ?? '';
      await expect(
        page.getByRole('table', { name: 'Orders' }).locator(`tr[data-placement="${reference}"]`),
      ).toContainText('Unconfirmed');

      await setFaults(host, {});
      await setStreamAccepting(host, true);
      const orderId = ticket(page).getByTestId('ticket-order-id');
      await expect(orderId).toHaveText(/\S+/, { timeout: 45_000 });
      await expect(page.getByTestId('unconfirmed-badge')).toHaveCount(0);

      const orders = await brokerOrders(host);
      expect(orders).toHaveLength(before + 1);
      expect(orders.filter((o) => o.client_order_id === reference).map((o) => o.order_id)).toEqual([
        await orderId.textContent(),
      ]);
    } finally {
      await setFaults(host, {});
      await setStreamAccepting(host, true);
    }
  });

  test('host crashes mid-placement: the ticket says "lost contact", never "failed"; no call is re-sent after its answer; one click places it again', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const dataDir = freshDataDir();
    const door = await openFrontDoor();
    let current = await launchHost(dataDir);
    try {
      door.use(current.handle);
      const { placeMessages, openSockets, lastRequestId } = watchBridge(page);
      await openDashboard(page, { ...current.handle, url: door.url });
      await readyInfyTicket(page, '3');

      // Hold the placement at the broker's door (nothing is handled until a release that never comes).
      const held = await holdReplies(current.handle, { method: 'POST', pathPrefix: '/v1/orders' });
      await ticket(page).getByRole('button', { name: 'Place order' }).click();
      await held.waitUntilHeld();
      await expect.poll(placeMessages).toBe(1);
      await expect(ticket(page).getByTestId('ticket-outcome')).toHaveText('Placing…');
      // Main has the intent on disk (it journals before it sends), so the crash cannot erase it.
      await expect.poll(() => journaled(dataDir, lastRequestId())).toBe(true);

      // Crash the host with the call in flight: the page's bridge answers it "disconnected".
      door.use(null);
      await current.kill('SIGKILL');
      const outcome = ticket(page).getByTestId('ticket-outcome');
      await expect(outcome).toHaveAttribute('data-state', 'unconfirmed');
      await expect(outcome).toContainText('Lost contact with the Tradedesk service');
      await expect(outcome).not.toContainText(/not placed|failed/i);

      await expect.poll(openSockets).toBe(0);

      // The host comes back on the same data folder; the page's bridge reconnects by itself, and
      // the ticket finds its intent in the list by the click's request id (the reference shows).
      current = await launchHost(dataDir);
      door.use(current.handle);
      await expect.poll(openSockets, { timeout: 20_000 }).toBe(1);
      await expect(ticket(page).getByTestId('ticket-reference')).toHaveText(/^td-/, { timeout: 20_000 });

      // It was journaled before the crash and the broker never saw it: after a restart it is never
      // re-sent on its own; once the broker confirms it absent, the ticket asks the trader.
      await expect(outcome).toHaveAttribute('data-state', 'needs_decision', { timeout: 45_000 });
      await expect(page.getByTestId('unconfirmed-badge')).toHaveText('1 unconfirmed');
      const reference = (await ticket(page).getByTestId('ticket-reference').textContent()) ?? '';
      expect(placeMessages()).toBe(1);
      expect(await brokerOrders(current.handle)).toEqual([]);

      await ticket(page)
        .getByRole('button', { name: `Place ${reference} again` })
        .click();
      const orderId = ticket(page).getByTestId('ticket-order-id');
      await expect(orderId).toHaveText(/\S+/, { timeout: 30_000 });
      const orders = await brokerOrders(current.handle);
      expect(orders.map((o) => [o.client_order_id, o.order_id])).toEqual([[reference, await orderId.textContent()]]);
      expect(placeMessages()).toBe(1); // Place again is its own channel; the first click was never re-sent
      await expect(page.getByTestId('unconfirmed-badge')).toHaveCount(0);
    } finally {
      await current.kill('SIGTERM');
      await door.close();
    }
  });
});
