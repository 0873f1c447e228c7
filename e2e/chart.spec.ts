import type { Page } from '@playwright/test';
import { deskOn, expect, quietHostPerFile, test } from './fixtures';

/**
 * The chart as a trader uses it. The canvas is not read: the panel's legend (the last candle's
 * OHLC, as text with data attributes), its candle count and its list of price lines are the
 * same data the canvas draws, so the tests read those.
 */

const chart = (page: Page) => page.getByRole('region', { name: 'Chart' });
const lastCandle = (page: Page) => chart(page).getByTestId('chart-last-candle');

/** A host whose paper market moves only when a test moves it. */
const quietHost = quietHostPerFile();

/** Selects a watchlist row, which the chart follows. */
async function showOnChart(page: Page, symbol: string): Promise<void> {
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }).click();
  await expect(chart(page).getByTestId('chart-legend')).toContainText(symbol);
}

test('draws candles for each interval, on that interval’s grid', async ({ page, desk }) => {
  await desk.open();
  await showOnChart(page, 'INFY');
  const seconds = { minute: 60, '5minute': 300, '15minute': 900, '60minute': 3600, day: 86_400 } as const;
  for (const [interval, step] of Object.entries(seconds)) {
    await chart(page).getByRole('radio', { name: interval, exact: true }).click();
    await expect(chart(page).getByRole('radio', { name: interval, exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(chart(page).getByRole('progressbar')).toHaveCount(0);
    const count = chart(page).getByTestId('chart-candle-count');
    await expect(count).toHaveText(/\d+ candles/);
    expect(Number(await count.getAttribute('data-count'))).toBeGreaterThan(20);
    const time = Number(await lastCandle(page).getAttribute('data-time'));
    expect(time % step).toBe(0);
  }
});

test('the forming candle follows a price moved through the control interface', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  await showOnChart(page, 'TCS');
  await chart(page).getByRole('radio', { name: 'minute', exact: true }).click();
  await expect(lastCandle(page)).toHaveAttribute('data-close', /\d/);
  const before = Number(await lastCandle(page).getAttribute('data-close'));
  const token = await desk.instrumentToken('NSE', 'TCS');

  const up = Math.round(before * 1.03 * 20) / 20;
  await desk.setPrice(token, up);
  await expect(lastCandle(page)).toHaveAttribute('data-close', String(up));
  expect(Number(await lastCandle(page).getAttribute('data-high'))).toBeGreaterThanOrEqual(up);
  await expect(page.getByTestId('ltp-TCS')).toHaveText(up.toLocaleString('en-IN', { minimumFractionDigits: 2 }));

  const down = Math.round(before * 0.98 * 20) / 20;
  await desk.setPrice(token, down);
  await expect(lastCandle(page)).toHaveAttribute('data-close', String(down));
  expect(Number(await lastCandle(page).getAttribute('data-low'))).toBeLessThanOrEqual(down);
  expect(Number(await lastCandle(page).getAttribute('data-high'))).toBeGreaterThanOrEqual(up);
});

test('a price that stops ticking is shown stale, and live again when it moves', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  await desk.open();
  const ltp = page.getByTestId('ltp-SBIN');
  await expect(ltp).toHaveAttribute('data-quote', 'live');
  await expect(ltp).toHaveAttribute('data-quote', 'stale', { timeout: 15_000 });
  const token = await desk.instrumentToken('NSE', 'SBIN');
  const text = (await ltp.textContent()) ?? '';
  const price = Number(text.replace(/,/g, ''));
  await desk.setPrice(token, Math.round((price + 1) * 20) / 20);
  await expect(ltp).toHaveAttribute('data-quote', 'live');
});

test('a working order is drawn as a price line until it is cancelled; a click on the chart prices the ticket', async ({
  page,
}) => {
  // On the quiet host: the order it leaves behind must not show up in other specs' blotters.
  const desk = deskOn(page, quietHost());
  await desk.open();
  await desk.chooseSymbol('HDFCBANK', /HDFCBANK/);
  await expect(chart(page).getByTestId('chart-legend')).toContainText('HDFCBANK');
  // The ticket's LTP arrives with the first quote after the symbol changes, not with the legend.
  await expect(page.getByTestId('ticket-ltp')).toHaveText(/^[\d,]+\.\d+$/);
  const ltp = Number(((await page.getByTestId('ticket-ltp').textContent()) ?? '').replace(/,/g, ''));
  const limit = (Math.round(ltp * 0.9 * 20) / 20).toFixed(2);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: limit });
  const id = await desk.placeOrder();
  await expect(desk.orderRow(id)).toContainText('OPEN');

  const lines = chart(page).getByRole('list', { name: 'Price lines' });
  const line = lines.locator(`[data-line-id="${id}:price"]`);
  // On the tick's decimals, as every price on screen (docs/desk.md §Prices on the tick).
  await expect(line).toContainText(
    `BUY 2 LIMIT @ ${Number(limit).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );

  await desk
    .orderRow(id)
    .getByRole('button', { name: `Cancel ${id}` })
    .click();
  await expect(desk.orderRow(id)).toContainText('CANCELLED');
  await expect(line).toHaveCount(0);
  await expect(desk.blotter).toBeVisible();

  // A click in the chart's top margin is above every candle, so above the market: for a BUY a
  // stop (SL) triggering there, for a SELL a LIMIT there.
  const canvas = chart(page).getByTestId('chart-canvas');
  const box = (await canvas.boundingBox())!;
  const top = { x: box.width * 0.5, y: box.height * 0.03 };
  await canvas.click({ position: top });
  const t = desk.ticket;
  await expect(t.getByLabel('Order type')).toHaveValue('SL');
  const trigger = Number(await t.getByLabel('Trigger price').inputValue());
  expect(trigger).toBeGreaterThan(ltp * 0.9);
  expect(Number(await t.getByLabel('Price', { exact: true }).inputValue())).toBe(trigger);
  await t.getByRole('radio', { name: 'Sell' }).check({ force: true });
  await expect(t.getByRole('radio', { name: 'Sell' })).toBeChecked();
  await canvas.click({ position: top });
  await expect(t.getByLabel('Order type')).toHaveValue('LIMIT');
  await expect(t.getByLabel('Price', { exact: true })).toHaveValue(String(trigger));
});
