import type { Page } from '@playwright/test';
import { deskOn, expect, startHost, test, type HostHandle } from './fixtures';
import { controlHeaders } from './dashboard-helpers';
import { expectUnchangedFor } from './negative-checks';
import { routeBridge } from './session-frames';

/**
 * The dashboard when things go wrong and across restarts: rate limits, an expired session,
 * persisted preferences, and the keyboard.
 */

/** A fresh panel's age label: "just now" or "3 s ago". */
const FRESH = /(just now|ago)$/;

/** A workspace panel (a region named by its heading). */
function panel(page: Page, name: string) {
  return page.getByRole('region', { name, exact: true });
}

/** The "12 s ago" / "Stale … · reason" label in a panel's header. */
function freshness(page: Page, name: string) {
  return panel(page, name).locator('.freshness');
}

/** Every value in the page's web storage, for the no-secrets check. */
async function webStorage(page: Page, which: 'local' | 'session'): Promise<Record<string, string>> {
  return page.evaluate((kind) => {
    const out: Record<string, string> = {};
    const s = kind === 'local' ? localStorage : sessionStorage;
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i)!;
      out[k] = s.getItem(k) ?? '';
    }
    return out;
  }, which);
}

/** Every access token the paper broker has issued (test code only). */
async function issuedTokens(host: HostHandle): Promise<string[]> {
  const res = await fetch(`${host.paperUrl}/_control/sessions`, { headers: controlHeaders(host) });
  const body = (await res.json()) as { sessions: Array<{ access_token: string }> };
  return body.sessions.map((s) => s.access_token);
}

test.describe('dashboard: sessions, faults and preferences', () => {
  test.afterEach(async ({ desk }) => {
    await desk.setFaults({});
    await desk.setStreamAccepting(true);
  });

  test('rate limiting turns the panels stale with the reason and the backoff, and they recover', async ({
    page,
    desk,
  }) => {
    test.setTimeout(90_000);
    await desk.open();
    for (const name of ['Funds', 'Positions', 'Orders']) await expect(freshness(page, name)).toHaveText(FRESH);
    // Without the stream the panels poll every second, so a refusal shows within seconds (with it
    // they re-check every 30 s and would show it at their next reconcile).
    await desk.cutStream();

    await desk.setFaults({ rate_limit: 1 });
    for (const name of ['Funds', 'Positions', 'Orders']) {
      await expect(freshness(page, name)).toHaveAttribute('data-stale', 'true', { timeout: 30_000 });
      // While main is still retrying a poll the reason is the link main reported ("Broker
      // degraded" with the 429's message); once the poll gives up, the poll's own error.
      await expect(freshness(page, name)).toHaveText(
        /^Stale \d+ (s|min) · (Rate limited by the broker|Broker degraded \(Too many requests.*\)) · retrying (in \d+ s|now)$/,
      );
    }
    // The figures stay on screen (marked stale) rather than vanishing.
    await expect(panel(page, 'Funds')).toContainText('Available margin');
    await expect(panel(page, 'Funds')).toHaveClass(/panel--stale/);

    await desk.setFaults({});
    for (const name of ['Funds', 'Positions', 'Orders']) {
      await expect(freshness(page, name)).toHaveAttribute('data-stale', 'false', { timeout: 45_000 });
      await expect(freshness(page, name)).toHaveText(FRESH);
    }
    await expect(panel(page, 'Funds')).not.toHaveClass(/panel--stale/);
  });

  for (const { order, forced } of [
    { order: 'in the order main sends them', forced: false },
    { order: "with the login's reply held back until the new session's expiry has arrived", forced: true },
  ]) {
    test(`an expired session shows the login dialog and the banner; a login refused at once keeps both (session facts ${order}); logging in again recovers the panels`, async ({
      page,
      desk,
    }) => {
      test.setTimeout(90_000);
      const frames = await routeBridge(page);
      await desk.open();
      await expect(freshness(page, 'Funds')).toHaveText(FRESH);
      // Without the stream the desk asks the broker every second, so it meets the refusal at once.
      await desk.cutStream();

      await desk.setFaults({ token_expiry: 1 });
      const dialog = page.getByRole('dialog', { name: 'Log in to a broker' });
      const banner = page.getByRole('alert').filter({ hasText: /^Session expired/ });
      await expect(dialog).toBeVisible({ timeout: 30_000 });
      await expect(banner).toBeVisible();
      await expect(page.getByRole('status')).toContainText(/Not connected/);

      // While the broker still refuses every token, a login goes through but the new session is
      // refused at once (main's background work after login meets the 401, re-logs in once,
      // meets it again). Its expiry and the login's reply reach the page in either order — a
      // loaded machine delivers the expiry first now and then; the forced run always does.
      const issued = (await issuedTokens(desk.host)).length;
      if (forced) frames.holdNextLoginReply();
      await dialog.getByRole('button', { name: 'Log in' }).click();
      await expect.poll(async () => (await issuedTokens(desk.host)).length).toBeGreaterThanOrEqual(issued + 2);
      // The page has both the reply and an expiry numbered after it: the dialog and the banner
      // must come back (not a silently dead desk), and the login has settled.
      await expect.poll(() => frames.loginRefused(), { timeout: 20_000 }).toBe(true);
      await expect(dialog.getByRole('button', { name: 'Log in' })).toBeEnabled();
      await expect(dialog).toBeVisible();
      await expect(banner).toBeVisible();
      await expect(page.getByRole('status')).toContainText(/Not connected/);

      await desk.setFaults({});
      await expect(dialog.getByRole('radio', { name: /Paper broker/ })).toBeChecked();
      await dialog.getByRole('button', { name: 'Log in' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
      await expect(banner).toHaveCount(0);
      for (const name of ['Funds', 'Positions', 'Orders']) {
        await expect(freshness(page, name)).toHaveAttribute('data-stale', 'false', { timeout: 20_000 });
      }

      // And trading works again.
      await desk.chooseSymbol('INFY', /^INFY NSE/);
      await desk.fillTicket({ orderType: 'LIMIT', price: '1000', quantity: '1' });
      await desk.ticket.getByRole('button', { name: 'Place order' }).click();
      await expect(desk.ticket.getByTestId('ticket-order-id')).toHaveText(/\S+/);
    });
  }

  test('theme and panel sizes persist across a reload, and web storage holds no secrets', async ({ page, desk }) => {
    await desk.open();
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');

    // Drag the separator between the orders and positions panels up by 120 px.
    const orders = panel(page, 'Orders');
    const before = (await orders.boundingBox())!;
    const separators = page.locator('[role="separator"]');
    let moved = false;
    for (let i = 0; i < (await separators.count()) && !moved; i++) {
      const box = (await separators.nth(i).boundingBox())!;
      // The horizontal bar just below the Orders panel.
      if (Math.abs(box.y - (before.y + before.height)) < 12 && box.width > box.height) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 120, { steps: 8 });
        await page.mouse.up();
        moved = true;
      }
    }
    expect(moved).toBe(true);
    const resized = (await orders.boundingBox())!;
    expect(resized.height).toBeLessThan(before.height - 80);

    await page.reload();
    await expect(page.getByRole('status')).toContainText(/Connected to/);
    await expect(html).toHaveAttribute('data-theme', 'light');
    const after = (await panel(page, 'Orders').boundingBox())!;
    expect(Math.abs(after.height - resized.height)).toBeLessThan(4);

    // What outlives the tab is the settings alone. The tab's session storage holds the host's
    // launch key, out of the address bar and history (docs/architecture.md §The bridge): it
    // opens this page's bridge, never the broker's.
    const stored = await webStorage(page, 'local');
    expect(Object.keys(stored)).toEqual(['tradedesk.settings']);
    const session = await webStorage(page, 'session');
    expect(session).toEqual({ 'tradedesk.launch-key': desk.host.key });
    const tokens = await issuedTokens(desk.host);
    expect(tokens.length).toBeGreaterThan(0);
    for (const value of [...Object.values(stored), ...Object.values(session)]) {
      for (const t of tokens) expect(value).not.toContain(t);
      expect(value).not.toMatch(/token|secret|api_?key|password/i);
    }
  });

  test('F1/F2 open a buy/sell ticket for the selected instrument, Esc closes, Enter places after confirmation', async ({
    page,
    desk,
  }) => {
    await desk.setSymbolPrice('NSE', 'SBIN', 800);
    await desk.open();
    const watch = page.getByRole('table', { name: 'Instruments' });
    await watch.getByRole('row').filter({ hasText: 'SBIN' }).getByRole('cell', { name: 'SBIN', exact: true }).click();

    const t = desk.ticket;
    await page.keyboard.press('Escape');
    await expect(t).toHaveCount(0);
    await expect(page.getByText('No ticket open.')).toBeVisible();

    await page.keyboard.press('F2');
    await expect(t).toBeVisible();
    await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue('SBIN');
    await expect(t.getByRole('radio', { name: 'Sell' })).toBeChecked();
    await page.keyboard.press('Escape');
    await expect(t).toHaveCount(0);

    await page.keyboard.press('F1');
    await expect(t.getByRole('radio', { name: 'Buy' })).toBeChecked();
    await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue('SBIN');
    await expect(t.getByLabel('Quantity')).toBeFocused();
    // Intraday: its own position row (an earlier spec's CNC buy may be a CNC position today, T+1).
    await t.getByLabel('Product').selectOption('MIS');
    await t.getByLabel('Quantity').focus();
    await page.keyboard.press('Enter');
    const confirm = t.getByRole('group', { name: 'Confirm order' });
    await expect(confirm).toContainText('BUY 1 SBIN MARKET');
    await page.keyboard.press('Enter');
    const id = t.getByTestId('ticket-order-id');
    await expect(id).toHaveText(/\S+/);
    await expect(t.getByTestId('ticket-order-status')).toHaveText('COMPLETE');
    await expect(desk.orderRow((await id.textContent()) ?? '')).toContainText('COMPLETE');

    // Exit on the new position fills the ticket with the opposite order.
    const positions = page.getByRole('table', { name: 'Positions' });
    await positions.getByRole('button', { name: 'Exit SBIN MIS' }).click();
    await expect(t.getByRole('radio', { name: 'Sell' })).toBeChecked();
    await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue('SBIN');
    await expect(t.getByLabel('Quantity')).toHaveValue('1');
  });

  test('a rejected order shows in the ticket and as a toast that stays, with the reason', async ({ page, desk }) => {
    await desk.open();
    await desk.chooseSymbol('ITC', /^ITC NSE/);
    await desk.fillTicket({ side: 'Sell', orderType: 'MARKET', product: 'CNC', quantity: '10' });
    await desk.ticket.getByRole('button', { name: 'Place order' }).click();
    await expect(desk.ticket.getByTestId('ticket-order-status')).toHaveText('REJECTED');
    await expect(desk.ticket.getByTestId('ticket-ack')).toContainText(/Insufficient holdings/);
    const toast = page.getByLabel('Notifications').getByRole('alert');
    await expect(toast).toContainText(/Rejected: SELL 10 ITC/);
    await expect(toast).toContainText(/Insufficient holdings/);
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
  });

  test('polling pauses while the window is hidden and resumes as soon as it is shown', async ({ page, desk }) => {
    const polls: number[] = [];
    const unanswered = new Set<number>();
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => {
        if (typeof f.payload !== 'string' || !f.payload.includes('"channel":"orders.sync"')) return;
        polls.push(Date.now());
        unanswered.add((JSON.parse(f.payload) as { id: number }).id);
      });
      ws.on('framereceived', (f) => {
        if (typeof f.payload === 'string') unanswered.delete((JSON.parse(f.payload) as { id?: number }).id ?? -1);
      });
    });
    await desk.open();
    // Without the stream the desk polls every second (with it, every 30 s): a pause shows at once.
    await desk.cutStream();
    await expect.poll(() => polls.length).toBeGreaterThan(1);

    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => (h ? 'hidden' : 'visible'),
        });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        document.dispatchEvent(new Event('visibilitychange'));
        window.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    // A poll already on the wire when the window hid may still land: wait for its reply.
    await expect.poll(() => unanswered.size).toBe(0);
    const whileHidden = polls.length;
    // Bounded on purpose (absence cannot be waited for): 8 s is longer than the interval without
    // a stream (1 s, or 5 s idle), so a desk that kept polling while hidden would have sent one.
    await expectUnchangedFor('orders.sync polls while hidden', () => polls.length, whileHidden, 8_000);

    await setHidden(false);
    await expect.poll(() => polls.length, { timeout: 3_000 }).toBeGreaterThan(whileHidden);
    await expect(freshness(page, 'Orders')).toHaveText(FRESH);
  });

  test('losing the Tradedesk service shows the banner and turns every panel stale with the reason', async ({
    page,
  }) => {
    const own = await startHost();
    try {
      await deskOn(page, own.handle).open();
      for (const name of ['Funds', 'Positions', 'Orders']) await expect(freshness(page, name)).toHaveText(FRESH);
      await own.stop();
      await expect(page.getByRole('alert').filter({ hasText: /^Lost the connection to Tradedesk/ })).toBeVisible({
        timeout: 20_000,
      });
      for (const name of ['Funds', 'Positions', 'Orders']) {
        await expect(freshness(page, name)).toHaveText(/^Stale .* · Connection lost/, { timeout: 20_000 });
      }
    } finally {
      await own.stop();
    }
  });
});
