import type { Page } from '@playwright/test';
import { docShotPath, instrumentToken, openDashboard, setPrice } from './dashboard-helpers';
import { expect, quietHostPerFile, test } from './fixtures';

/**
 * The chart's studies and drawings as a trader uses them (docs/desk.md §Chart studies and
 * drawings). The canvas is not read: the studies' legend (each line's latest value, as text and
 * in data attributes) and the list of drawings are what the canvas draws.
 */

const chart = (page: Page) => page.getByRole('region', { name: 'Chart' });
const study = (page: Page, id: string) => chart(page).locator(`[data-study="${id}"]`);
const quietHost = quietHostPerFile();
test.use({ viewport: { width: 1920, height: 1080 } });

async function showOnChart(page: Page, symbol: string): Promise<void> {
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }).click();
  await expect(chart(page).getByTestId('chart-legend')).toContainText(symbol);
  await expect(chart(page).getByRole('progressbar')).toHaveCount(0);
}

test('studies are chosen with their periods, follow the forming candle, read on the tick and stay after a reload', async ({
  page,
}) => {
  const host = quietHost();
  await openDashboard(page, host);
  await showOnChart(page, 'TCS');
  await chart(page).getByRole('radio', { name: 'minute', exact: true }).click();
  await expect(chart(page).getByTestId('chart-last-candle')).toHaveAttribute('data-close', /\d/);

  const menu = chart(page).getByRole('group', { name: 'Studies' });
  await chart(page).getByText('Studies', { exact: true }).click();
  await menu.getByLabel('EMA period').fill('10');
  await menu.getByRole('checkbox', { name: 'EMA' }).check();
  await menu.getByRole('checkbox', { name: 'VWAP (session)' }).check();
  await menu.getByRole('checkbox', { name: 'Bollinger bands' }).check();
  await menu.getByRole('checkbox', { name: 'RSI' }).check();
  await menu.getByLabel('SMA period').fill('0');
  await expect(menu.getByRole('alert')).toHaveText('Period: 1 to 1000 bars');
  await menu.getByLabel('SMA period').fill('30');
  await menu.getByRole('checkbox', { name: 'SMA' }).check();

  // Every price-pane value reads in the decimals of TCS's ₹0.05 tick; the VWAP, on a session that
  // has not traded yet on this quiet market, says so rather than 0.
  for (const id of ['ema:10', 'sma:30', 'bb:20:2/upper', 'bb:20:2/lower']) {
    await expect(study(page, id)).toHaveText(/ [\d,]+\.\d{2}$/);
  }
  await expect(study(page, 'vwap')).toHaveText(/^VWAP ([\d,]+\.\d{2}|–)$/);
  await expect(study(page, 'ema:10')).toContainText('EMA 10');
  const rsi = Number(await study(page, 'rsi:14').getAttribute('data-value'));
  expect(rsi).toBeGreaterThanOrEqual(0);
  expect(rsi).toBeLessThanOrEqual(100);
  const upper = Number(await study(page, 'bb:20:2/upper').getAttribute('data-value'));
  const lower = Number(await study(page, 'bb:20:2/lower').getAttribute('data-value'));
  expect(upper).toBeGreaterThan(lower);
  await chart(page)
    .getByText(/^Studies/)
    .click(); // the menu closes
  await expect(menu).toBeHidden();
  await page.screenshot({ path: docShotPath('chart-studies.png') });
  // On a 1280×720 laptop the chart's header keeps Studies, the drawing tools and every interval
  // inside the panel.
  await page.setViewportSize({ width: 1280, height: 720 });
  const panel = (await chart(page).boundingBox())!;
  for (const control of [
    chart(page).getByText(/^Studies/),
    chart(page).getByRole('button', { name: 'Draw a trend line' }),
    chart(page).getByRole('radio', { name: 'day', exact: true }),
    page.getByRole('button', { name: 'Pop out Chart', exact: true }),
  ]) {
    const b = (await control.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(panel.x);
    expect(b.x + b.width).toBeLessThanOrEqual(panel.x + panel.width);
  }
  await page.screenshot({ path: docShotPath('chart-studies-1280x720.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });

  // A jump of 10% in the forming candle pulls the EMA up and the RSI towards 100.
  const emaBefore = Number(await study(page, 'ema:10').getAttribute('data-value'));
  const close = Number(await chart(page).getByTestId('chart-last-candle').getAttribute('data-close'));
  const token = await instrumentToken(host, 'NSE', 'TCS');
  const up = Math.round(close * 1.1 * 20) / 20;
  await setPrice(host, token, up);
  await expect(chart(page).getByTestId('chart-last-candle')).toHaveAttribute('data-close', String(up));
  await expect
    .poll(async () => Number(await study(page, 'ema:10').getAttribute('data-value')))
    .toBeGreaterThan(emaBefore);
  await expect.poll(async () => Number(await study(page, 'rsi:14').getAttribute('data-value'))).toBeGreaterThan(rsi);

  await page.reload();
  await showOnChart(page, 'TCS');
  await expect(study(page, 'ema:10')).toContainText('EMA 10');
  await expect(study(page, 'sma:30')).toContainText('SMA 30');
  await expect(study(page, 'rsi:14')).toBeVisible();
});

test('a drawn line and a trend line stay with their instrument, and a line becomes a price alert', async ({ page }) => {
  const host = quietHost();
  await openDashboard(page, host);
  await showOnChart(page, 'INFY');
  const canvas = chart(page).getByTestId('chart-canvas');
  // The list of drawings takes room under the chart: each click is placed on the canvas as it is then.
  const clickAt = async (x: number, y: number) => {
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: box.width * x, y: box.height * y } });
  };

  await chart(page).getByRole('button', { name: 'Draw a line' }).click();
  await expect(chart(page).getByRole('status').filter({ hasText: 'draw a line' })).toBeVisible();
  await clickAt(0.4, 0.3);
  const drawings = chart(page).getByRole('list', { name: 'Drawings' });
  const line = drawings.locator('[data-drawing="h1"]');
  await expect(line).toContainText(/^Line [\d,]+\.\d{2}/);

  await chart(page).getByRole('button', { name: 'Draw a trend line' }).click();
  await clickAt(0.35, 0.6);
  await expect(chart(page).getByRole('status').filter({ hasText: 'second end' })).toBeVisible();
  await clickAt(0.6, 0.4);
  await expect(drawings.locator('[data-drawing="t1"]')).toContainText(/^Trend [\d,]+\.\d{2} → [\d,]+\.\d{2}/);

  const price = (await line.getAttribute('data-price'))!;
  await line.getByRole('button', { name: 'Alert' }).click();
  await expect(line.getByRole('status')).toHaveText(
    `Alert set: crosses ${Number(price).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`,
  );

  // Another instrument has its own (none); back on INFY, and after a reload, INFY's are there.
  await showOnChart(page, 'TCS');
  await expect(drawings).toHaveCount(0);
  await showOnChart(page, 'INFY');
  await expect(drawings.locator('[data-drawing="h1"]')).toHaveAttribute('data-price', price);
  await page.reload();
  await showOnChart(page, 'INFY');
  await expect(drawings.locator('[data-drawing="t1"]')).toBeVisible();
  await drawings.getByRole('button', { name: /^Remove line/ }).click();
  await expect(drawings.locator('[data-drawing="h1"]')).toHaveCount(0);
});
