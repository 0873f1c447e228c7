import type { Page } from '@playwright/test';
import { deskOn, expect, quietHostPerFile, quietHostPerTest, test } from './fixtures';

/**
 * The watchlist's price columns hold the prices they show (docs/live-data.md §A ticking list's
 * cost): a six-digit price, its bid and offer, and a stale price's tag stay inside their own
 * boxes instead of running over the next column, in Chromium with the app's own fonts.
 */

/** A host whose paper market moves only when a test moves it, so a price can go stale. */
const quietHost = quietHostPerFile();

/** A quiet host of the test's own, whose prices nothing above moved to six digits. */
const ownQuietHost = quietHostPerTest();

/**
 * The watchlist's last prices and bids/offers wider than their cell, as "SYMBOL: text needs N px of M": each price box
 * is measured at its natural width (a copy of it, tag included, unconstrained beside it) against
 * its cell's width — what runs over the next column.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: 'Instruments' }).evaluate((table) =>
    [...table.querySelectorAll<HTMLElement>('.live-price, .bid-ask')].flatMap((box) => {
      const cell = box.closest('td');
      if (!cell) return [];
      const copy = box.cloneNode(true) as HTMLElement;
      copy.style.cssText = 'position:absolute;visibility:hidden;contain:none;width:auto;height:auto';
      cell.append(copy);
      const needs = copy.getBoundingClientRect().width;
      copy.remove();
      const symbol = box.closest('tr')?.querySelector('td.sym')?.textContent ?? '?';
      return needs > cell.clientWidth
        ? [`${symbol}: ${box.textContent ?? ''} needs ${needs} px of ${cell.clientWidth}`]
        : [];
    }),
  );
}

test('a six-digit price, its bid and offer, and its stale tag stay inside their columns', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  const ltp = page.getByTestId('ltp-SBIN');
  await expect(ltp).toHaveAttribute('data-quote', 'live');
  await desk.setSymbolPrice('NSE', 'SBIN', 123456.75);
  await expect(ltp).toHaveText('1,23,456.75');
  await expect(page.getByTestId('bid-SBIN')).toHaveText(/^1,23,4\d\d\.\d\d$/);
  await expect.poll(() => overflowing(page)).toEqual([]);

  // (The change column is not sized by its text: this price's +14,203% would not fit; a day's
  // real change does.) The quiet market does not tick again: the price turns stale and is tagged so.
  await expect(ltp).toHaveAttribute('data-quote', 'stale', { timeout: 15_000 });
  await expect.poll(() => overflowing(page)).toEqual([]);
});

/**
 * The watchlist's symbols of up to ten letters cut short ("HDFCBA…"), as "SYMBOL needs N px of M"
 * (their cell's text wider than the cell).
 */
function cutSymbols(page: Page): Promise<string[]> {
  return page
    .getByRole('table', { name: 'Instruments' })
    .evaluate((table) =>
      [...table.querySelectorAll<HTMLElement>('td.sym')]
        .filter((cell) => (cell.textContent ?? '').length <= 10 && cell.scrollWidth > cell.clientWidth)
        .map((cell) => `${cell.textContent ?? ''} needs ${cell.scrollWidth} px of ${cell.clientWidth}`),
    );
}

test('wider price columns leave a ten-letter symbol whole on the small screen', async ({ page }) => {
  // The small screen's watchlist is about as narrow as the list's least width: wider price
  // columns take that room from the symbols unless the list scrolls sideways instead.
  await page.setViewportSize({ width: 1280, height: 720 });
  const desk = deskOn(page, quietHost());
  await desk.open();
  await expect(page.getByTestId('ltp-SBIN')).toHaveAttribute('data-quote', 'live');
  await expect.poll(() => cutSymbols(page)).toEqual([]);
  await desk.setSymbolPrice('NSE', 'SBIN', 123456.75);
  await expect(page.getByTestId('ltp-SBIN')).toHaveText('1,23,456.75');
  await expect.poll(() => cutSymbols(page)).toEqual([]);
});

/** How far the watchlist's rows scroll sideways (0: the list fits its panel). */
const sideways = (page: Page): Promise<number> =>
  page.locator('.watchlist__rows').evaluate((rows) => rows.scrollWidth - rows.clientWidth);

test("after the market stops ticking the small screen's watchlist still fits its panel, each stale price tagged", async ({
  page,
}) => {
  // After the close every row turns stale: its tag, in every row, must not push the list wider.
  await page.setViewportSize({ width: 1280, height: 720 });
  const desk = deskOn(page, ownQuietHost());
  await desk.open();
  const ltp = page.getByTestId('ltp-TCS');
  await expect(ltp).toHaveAttribute('data-quote', 'live');
  await expect(ltp).toHaveAttribute('data-quote', 'stale', { timeout: 15_000 });
  await expect.poll(() => sideways(page)).toBeLessThanOrEqual(1);
  await expect.poll(() => cutSymbols(page)).toEqual([]);
  await expect.poll(() => overflowing(page)).toEqual([]);
});
