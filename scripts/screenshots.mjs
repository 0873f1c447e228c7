#!/usr/bin/env node
// Screenshots of the workspace for the README: docs/workspace-dark.png and docs/workspace-light.png
// at 1440×900 (the depth ladder beside the chart, a MARKET ticket that says how far it walks the
// book), docs/workspace-1280x720.png / docs/workspace-1920x1080.png (dark) for the small and the
// large screen, docs/option-chain.png (the chain in the chart's slot), docs/trade-book-1280x720.png (the Trades
// tab with the day's summary), docs/basket-1280x720.png (two legs added from the ticket), docs/command-palette.png and
// docs/shortcuts.png (the keyboard) and docs/chart-sessions.png
// (15-minute candles over a week of sessions: no bar outside trading hours, the axis skips the
// nights, the weekend and the holiday). Starts the browser host with its paper broker (control
// interface on), trades a small realistic day on it through the broker's REST API (the app's own
// session, read from the control interface) — with holdings bought the session before — then drives
// the real renderer in Debian's Chromium.
//
// Usage: npm run build && node scripts/screenshots.mjs [--out docs]
import { chromium } from '@playwright/test';
import { join } from 'node:path';
import { outDirFromArgs, withShotDesk } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Tables wider than their panel (a cut-off column is a layout bug worth hearing about). */
function tablesWiderThanPanels(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.table-scroll')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map(
        (el) =>
          `${el.closest('section')?.querySelector('h2')?.textContent ?? '?'}: ${el.scrollWidth - el.clientWidth}px`,
      ),
  );
}

/** Rounds to a tick of 0.05 (paper equities). */
const tick = (p) => Math.round(p * 20) / 20;

await withShotDesk(chromium, 'shots', [], async ({ page, broker }) => {
  // A small trading day: fills for positions and a holding, working orders, a cancel, a rejection.
  const nse = await broker.instruments('NSE');
  const nfo = await broker.instruments('NFO');
  const ltp = (sym) => nse.find((i) => i.tradingsymbol === sym).last_price;
  const fut =
    nfo.find((i) => i.instrument_type === 'FUT' && i.name === 'NIFTY') ?? nfo.find((i) => i.instrument_type === 'FUT');
  const eq = (tradingsymbol, o) => broker.place({ exchange: 'NSE', tradingsymbol, ...o });

  // Delivery bought the session before reaches holdings today (T+1).
  await eq('HDFCBANK', { transaction_type: 'BUY', quantity: 120, order_type: 'MARKET', product: 'CNC' });
  await eq('TITAN', { transaction_type: 'BUY', quantity: 15, order_type: 'MARKET', product: 'CNC' });
  const nseOpen = (await broker.marketStatus()).exchanges.find((e) => e.exchange === 'NSE').next_open;
  await broker.setClock(new Date(Date.parse(nseOpen) + 20 * 60_000).toISOString());

  await eq('INFY', { transaction_type: 'BUY', quantity: 40, order_type: 'MARKET', product: 'MIS' });
  await eq('SBIN', { transaction_type: 'SELL', quantity: 150, order_type: 'MARKET', product: 'MIS' });
  await eq('RELIANCE', { transaction_type: 'BUY', quantity: 60, order_type: 'MARKET', product: 'MIS' });
  await eq('RELIANCE', { transaction_type: 'SELL', quantity: 20, order_type: 'MARKET', product: 'MIS' });
  await broker.place({
    exchange: 'NFO',
    tradingsymbol: fut.tradingsymbol,
    transaction_type: 'BUY',
    quantity: fut.lot_size,
    order_type: 'MARKET',
    product: 'NRML',
  });
  await eq('TCS', {
    transaction_type: 'BUY',
    quantity: 10,
    order_type: 'LIMIT',
    price: tick(ltp('TCS') * 0.95),
    product: 'MIS',
  });
  await eq('ICICIBANK', {
    transaction_type: 'SELL',
    quantity: 75,
    order_type: 'LIMIT',
    price: tick(ltp('ICICIBANK') * 1.05),
    product: 'MIS',
  });
  await eq('AXISBANK', {
    transaction_type: 'BUY',
    quantity: 50,
    order_type: 'SL',
    price: tick(ltp('AXISBANK') * 1.04),
    trigger_price: tick(ltp('AXISBANK') * 1.035),
    product: 'MIS',
  });
  const cancelled = await eq('WIPRO', {
    transaction_type: 'BUY',
    quantity: 300,
    order_type: 'LIMIT',
    price: tick(ltp('WIPRO') * 0.96),
    product: 'MIS',
  });
  await broker.cancel(cancelled.order_id);
  await eq('ITC', { transaction_type: 'SELL', quantity: 200, order_type: 'MARKET', product: 'CNC' }); // no holding: REJECTED

  // Let the market walk a little so P&L is not all zero, and the panels poll it.
  await sleep(4_000);

  // Watchlist: select a row (F1/F2 target; the chart and the depth follow it) and open a MARKET buy
  // ticket on it larger than the best offer, so it says how many levels it would take.
  const watch = page.getByRole('table', { name: 'Instruments' });
  await watch.getByRole('cell', { name: 'RELIANCE', exact: true }).click();
  await page.keyboard.press('F1');
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByLabel('Order type').selectOption('MARKET');
  await ticket.getByLabel('Product').selectOption('MIS');
  await ticket.getByLabel('Quantity').fill('600');
  await ticket.getByTestId('margin-required').filter({ hasText: '₹' }).waitFor();
  await ticket.getByTestId('ticket-depth-walk').waitFor();
  await page.getByRole('table', { name: 'Market depth' }).locator('.depth__price--offer button').nth(4).waitFor();
  await page.getByRole('table', { name: 'Orders' }).getByText('REJECTED').first().waitFor();
  // Leave the rejection toast (it stays until dismissed, as a trader must see it); let the others fade.
  await sleep(6_500);
  await page.mouse.move(0, 0);

  const overflows = await tablesWiderThanPanels(page);
  if (overflows.length > 0) console.warn(`tables wider than their panel: ${overflows.join(', ')}`);

  await page.screenshot({ path: join(outDir, 'workspace-dark.png') });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await page.locator('html[data-theme="light"]').waitFor();
  await sleep(300);
  await page.screenshot({ path: join(outDir, 'workspace-light.png') });
  console.log(`wrote ${join(outDir, 'workspace-dark.png')} and ${join(outDir, 'workspace-light.png')}`);

  // The small and the large screen a trader is likely to have, in the dark theme.
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.locator('html[data-theme="dark"]').waitFor();
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    // Let the resizable panels and the chart lay out at the new size (two frames).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await sleep(300);
    const file = join(outDir, `workspace-${width}x${height}.png`);
    // e2e/layout.spec.ts asserts the full rule at these sizes; this is a quick look for the eye.
    const wide = await tablesWiderThanPanels(page);
    if (wide.length > 0) console.warn(`${width}×${height}: tables wider than their panel: ${wide.join(', ')}`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
  }

  // The option chain, in the chart's slot, at the usual size.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('tab', { name: 'Option chain' }).click();
  await page.getByRole('table', { name: 'Option chain' }).locator('tr.is-atm').waitFor();
  await sleep(1_500);
  const chainFile = join(outDir, 'option-chain.png');
  await page.screenshot({ path: chainFile });
  console.log(`wrote ${chainFile}`);

  // The trade book with the day's summary, in the Orders slot, on the small screen.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('tab', { name: 'Trades' }).click();
  await page.getByRole('table', { name: 'Trades' }).getByRole('row').nth(2).waitFor();
  await sleep(500);
  const tradesFile = join(outDir, 'trade-book-1280x720.png');
  await page.screenshot({ path: tradesFile });
  console.log(`wrote ${tradesFile}`);
  await page.getByRole('tab', { name: 'Orders' }).click();

  // A basket of two legs from the ticket (RELIANCE bought, TCS sold), in the Positions slot.
  const form = page.getByRole('form', { name: 'Order ticket' });
  await form.getByRole('button', { name: /^Add to basket/ }).click();
  await form.getByRole('combobox', { name: 'Symbol' }).fill('TCS');
  await form.getByRole('listbox').getByRole('option').first().waitFor();
  await form.getByRole('combobox', { name: 'Symbol' }).press('Enter');
  await page.keyboard.press('F2'); // a sell ticket for TCS, now the selected instrument
  await form.getByLabel('Quantity').fill('150');
  await form.getByRole('button', { name: /^Add to basket/ }).click();
  await page.getByRole('tab', { name: 'Basket' }).click();
  await page.getByTestId('basket-margin').filter({ hasText: '₹' }).waitFor();
  await sleep(300);
  const basketFile = join(outDir, 'basket-1280x720.png');
  await page.screenshot({ path: basketFile });
  console.log(`wrote ${basketFile}`);
  await page.getByRole('tab', { name: 'Positions' }).click();

  // The command palette finding "sell nifty", and the shortcuts sheet, at the usual size.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Find an instrument or an action' }).fill('sell nifty');
  await page.getByRole('dialog', { name: 'Command palette' }).getByRole('option').first().waitFor();
  await sleep(300);
  const paletteFile = join(outDir, 'command-palette.png');
  await page.screenshot({ path: paletteFile });
  await page.keyboard.press('Escape');
  await page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row]').first().focus();
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await sleep(300);
  const sheetFile = join(outDir, 'shortcuts.png');
  await page.screenshot({ path: sheetFile });
  await page.keyboard.press('Escape');
  console.log(`wrote ${paletteFile} and ${sheetFile}`);

  // The chart alone, larger: 15-minute candles over the last week's sessions.
  await page.getByRole('tab', { name: 'Chart' }).click();
  await page.setViewportSize({ width: 1920, height: 1080 });
  const chart = page.getByRole('region', { name: 'Chart' });
  await chart.getByRole('radio', { name: '15minute', exact: true }).click();
  await chart
    .getByTestId('chart-candle-count')
    .filter({ hasText: /candles/ })
    .waitFor();
  await page.mouse.move(0, 0); // no hover on the interval just chosen
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await sleep(500);
  const chartFile = join(outDir, 'chart-sessions.png');
  await chart.screenshot({ path: chartFile });
  console.log(`wrote ${chartFile}`);
});
