import type { Locator, Page } from '@playwright/test';
import {
  docShotPath,
  instrumentToken,
  openDashboard,
  paperPlace,
  paperToken,
  setPrice,
  ticket,
} from './dashboard-helpers';
import { expect, quietHostPerFile, test, type HostHandle } from './fixtures';

/**
 * A trader's first day at the two screens they are likely to have (docs/renderer.md §Layout on
 * small screens): F1/F2 start a LIMIT at the live touch, not the list's stale price; with the
 * bracket section open, Place and the ticket's answer stay on screen; six notifications at once
 * cover no control. Each state is pictured (into docs/, `first-day-*.png`, with `TD_DOC_SHOTS=1`).
 */

const quiet = quietHostPerFile();

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

/** The price typed in a text field, as a number. */
async function numberIn(field: Locator): Promise<number> {
  return Number((await field.inputValue()).replace(/,/g, ''));
}

/** The number shown in an element ("1,545.05"). */
async function numberOf(el: Locator): Promise<number> {
  return Number(((await el.textContent()) ?? '').replace(/[^\d.]/g, ''));
}

/** Whether the element's box is wholly inside the window. */
async function inViewport(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

/** Selects a watchlist row by its symbol. */
async function pickOnWatchlist(page: Page, symbol: string): Promise<void> {
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }).click();
}

/** Places an order on the app's account through the broker's REST API (what another device would do). */
async function placeOutside(host: HostHandle, order: Record<string, unknown>): Promise<void> {
  await paperPlace(host, await paperToken(host), { order_type: 'MARKET', ...order });
}

/**
 * The controls on screen a notification could hide: every visible button, field, select, tab
 * and link outside the notifications tray, with their boxes.
 */
async function controlBoxes(page: Page) {
  return page.evaluate(() => {
    const tray = document.querySelector('[aria-label="Notifications"]');
    const out: Array<{ name: string; x: number; y: number; w: number; h: number }> = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, input, select, [role="tab"], a[href]')) {
      if (tray?.contains(el) || !el.checkVisibility()) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight) continue;
      out.push({
        name: el.getAttribute('aria-label') ?? el.textContent ?? el.tagName,
        x: r.x,
        y: r.y,
        w: r.width,
        h: r.height,
      });
    }
    return out;
  });
}

for (const size of SIZES) {
  const tag = `${size.width}x${size.height}`;
  test.describe(`at ${tag}`, () => {
    test.use({ viewport: size });

    test(`F1/F2 start a LIMIT at the live touch; Place and the answer stay in view; six toasts cover nothing (${tag})`, async ({
      page,
    }) => {
      const host = quiet();
      const infy = await instrumentToken(host, 'NSE', 'INFY');
      const tcs = await instrumentToken(host, 'NSE', 'TCS');
      await setPrice(host, infy, 1500);
      await setPrice(host, tcs, 3000);
      await openDashboard(page, host);
      // The market moves 3% after the instrument list was read: the list's prices are stale now.
      await setPrice(host, infy, 1545);
      await setPrice(host, tcs, 2910);
      const t = ticket(page);

      await test.step('F1 on INFY: a buy LIMIT starts at the live offer', async () => {
        await pickOnWatchlist(page, 'INFY');
        await page.keyboard.press('F1');
        await t.getByLabel('Order type').selectOption('LIMIT');
        await expect(t.getByTestId('ticket-price-source')).toHaveText('Limit price from the live offer');
        const ask = await numberOf(t.getByTestId('ticket-ask'));
        expect(Math.abs((await numberIn(t.getByLabel('Price', { exact: true }))) - ask)).toBeLessThanOrEqual(0.05);
        expect(ask).toBeGreaterThan(1540);
      });

      await test.step('F2 on TCS: a sell LIMIT starts at the live bid', async () => {
        await pickOnWatchlist(page, 'TCS');
        await page.keyboard.press('F2');
        await expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveValue('TCS');
        await expect(t.getByTestId('ticket-price-source')).toHaveText('Limit price from the live bid');
        const bid = await numberOf(t.getByTestId('ticket-bid'));
        expect(Math.abs((await numberIn(t.getByLabel('Price', { exact: true }))) - bid)).toBeLessThanOrEqual(0.05);
        expect(bid).toBeLessThan(2920);
        await page.screenshot({ path: docShotPath(`first-day-ticket-${tag}.png`) });
      });

      await test.step('the bracket section open: Place bracket and the answer are on screen', async () => {
        await t.getByRole('button', { name: /Stop-loss, target & size/ }).click();
        await t.getByLabel('Stop-loss', { exact: true }).fill('2950');
        await t.getByLabel('Target', { exact: true }).fill('2850');
        const place = t.getByRole('button', { name: 'Place bracket' });
        await expect(place).toBeVisible();
        expect(await inViewport(page, place)).toBe(true);
        expect(await inViewport(page, t.getByTestId('ticket-outcome'))).toBe(true);
        // Enter asks first: the question is on screen too.
        await t.getByLabel('Target', { exact: true }).press('Enter');
        const confirm = t.getByRole('group', { name: 'Confirm order' });
        await expect(confirm).toBeVisible();
        expect(await inViewport(page, confirm)).toBe(true);
        expect(await inViewport(page, place)).toBe(true);
        await page.screenshot({ path: docShotPath(`first-day-bracket-${tag}.png`) });
        await confirm.getByRole('button', { name: 'Back' }).click();
      });

      await test.step('the ladder: rows to fill its slot, following the price until scrolled', async () => {
        await pickOnWatchlist(page, 'INFY');
        await page.getByRole('tab', { name: 'Ladder' }).click();
        const column = page.getByRole('group', { name: /^Price ladder of INFY/ });
        await expect(column).toBeVisible();
        const inView = () =>
          column.evaluate((el, selector) => {
            const box = el.getBoundingClientRect();
            return [...el.querySelectorAll(selector)].filter((tr) => {
              const r = tr.getBoundingClientRect();
              return r.top >= box.top && r.bottom <= box.bottom;
            }).length;
          }, 'tbody tr[data-price]');
        expect(await inView()).toBeGreaterThanOrEqual(size.height >= 1000 ? 16 : 8);
        // The market runs 80 ticks away: the ladder follows, the last price in view.
        await setPrice(host, infy, 1549);
        const lastRow = column.locator('tbody tr.ladder__row--last');
        await expect(lastRow).toHaveAttribute('data-price', '1,549.00');
        await expect
          .poll(() =>
            column.evaluate((el) => {
              const row = el.querySelector('tbody tr.ladder__row--last');
              if (!row) return false;
              const box = el.getBoundingClientRect();
              const r = row.getBoundingClientRect();
              return r.top >= box.top && r.bottom <= box.bottom;
            }),
          )
          .toBe(true);
        await page.screenshot({ path: docShotPath(`first-day-ladder-${tag}.png`) });
        await page.getByRole('tab', { name: 'Chart' }).click();
      });

      await test.step('six notifications at once cover no control', async () => {
        for (const symbol of ['INFY', 'TCS', 'SBIN'])
          await placeOutside(host, { tradingsymbol: symbol, transaction_type: 'BUY', quantity: 1, product: 'MIS' });
        // Selling what is not held, for delivery: rejected, and a rejection stays until dismissed.
        for (const symbol of ['ITC', 'WIPRO', 'TITAN'])
          await placeOutside(host, { tradingsymbol: symbol, transaction_type: 'SELL', quantity: 5, product: 'CNC' });
        const tray = page.getByRole('region', { name: 'Notifications' });
        // The three rejections stay until dismissed; a fill goes by itself after a few seconds,
        // so how many fills are still there depends on how fast this machine placed them.
        await expect(tray.getByRole('button', { name: /^\+\d+ more \(\d rejected\)/ })).toBeVisible();
        const toasts = await tray.locator('.toast').evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).checkVisibility())
            .map((e) => {
              const r = e.getBoundingClientRect();
              return { x: r.x, y: r.y, w: r.width, h: r.height };
            }),
        );
        expect(toasts.length).toBeGreaterThan(0);
        const covered = (await controlBoxes(page)).filter((c) =>
          toasts.some((s) => s.x < c.x + c.w && c.x < s.x + s.w && s.y < c.y + c.h && c.y < s.y + s.h),
        );
        expect(covered.map((c) => c.name)).toEqual([]);
        await page.screenshot({ path: docShotPath(`first-day-toasts-${tag}.png`) });
        // The collapsed ones, opened on purpose: every rejection is there to be read.
        await tray.getByRole('button', { name: /^\+\d+ more/ }).click();
        await expect(tray.getByRole('alert').filter({ hasText: /Rejected: SELL 5/ })).toHaveCount(3);
      });
    });
  });
}
