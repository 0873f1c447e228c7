#!/usr/bin/env node
// Screenshots of the strategy builder and the journal for the README: docs/strategy-builder.png
// (an iron condor on NIFTY from the template: the payoff at expiry and a day on, breakevens,
// figures, Greeks and the margin with the hedge), docs/strategy-chain.png (the option chain with
// its Greeks, PCR and max pain, at 1920×1080) and docs/journal.png (a month of trades imported from a Console
// tradebook plus the day's paper trades: the calendar, the equity curve, statistics by tag and a
// trade opened with its chart at the exit). Starts the browser host with its paper broker (control
// interface on), then drives the real renderer in Debian's Chromium.
//
// Usage: npm run build && node scripts/screenshot-strategy-journal.mjs [--out docs]
import { chromium } from '@playwright/test';
import { join } from 'node:path';
import { outDirFromArgs, withShotDesk } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();

/**
 * A month of intraday trades in Console's tradebook format, ending the day before `now`: a few
 * round trips a weekday in a handful of stocks, wins and losses mixed by a fixed sequence (the
 * same picture every run).
 */
function consoleTradebook(now) {
  const header =
    'symbol,isin,trade_date,exchange,segment,series,trade_type,auction,quantity,price,trade_id,order_id,order_execution_time';
  const stocks = [
    ['INFY', 1500],
    ['RELIANCE', 1410],
    ['HDFCBANK', 995],
    ['SBIN', 868],
    ['TCS', 3030],
  ];
  const moves = [0.6, -0.35, 0.9, -0.8, 0.25, 1.2, -0.4, 0.5, -1.1, 0.7, 0.3, -0.2, 0.8];
  const rows = [header];
  let n = 0;
  for (let back = 30; back >= 1; back--) {
    const d = new Date(now - back * 86_400_000);
    const wd = d.getUTCDay();
    if (wd === 0 || wd === 6) continue;
    const date = d.toISOString().slice(0, 10);
    for (let k = 0; k < 1 + (back % 3); k++) {
      const [symbol, base] = stocks[(back + k) % stocks.length];
      const move = moves[(back * 3 + k) % moves.length];
      const qty = 10 * (1 + ((back + k) % 4));
      const entry = Math.round(base * (1 + ((back % 5) - 2) / 100) * 20) / 20;
      const exit = Math.round(entry * (1 + move / 100) * 20) / 20;
      const inAt = `${date}T${String(9 + k * 2).padStart(2, '0')}:${String(20 + (back % 30)).padStart(2, '0')}:00`;
      const outAt = `${date}T${String(10 + k * 2).padStart(2, '0')}:${String(5 + (back % 40)).padStart(2, '0')}:00`;
      n++;
      rows.push(
        `${symbol},,${date},NSE,EQ,EQ,buy,false,${qty}.000000,${entry.toFixed(6)},DEMO${n}A,DEMOO${n}A,${inAt}`,
      );
      rows.push(
        `${symbol},,${date},NSE,EQ,EQ,sell,false,${qty}.000000,${exit.toFixed(6)},DEMO${n}B,DEMOO${n}B,${outAt}`,
      );
    }
  }
  return `${rows.join('\n')}\n`;
}

await withShotDesk(chromium, 'strategy-shots', ['--paper-tick-ms', '0'], async ({ page, broker }) => {
  // The chain with its Greeks, on a 1920×1080 screen where every column fits, after some trading
  // (so open interest has changed since the day began).
  await broker.tick(120);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByRole('tab', { name: 'Option chain' }).click();
  await page.getByRole('table', { name: 'Option chain' }).locator('tr.is-atm').waitFor();
  await page.getByRole('checkbox', { name: 'Greeks' }).check();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'strategy-chain.png') });
  await page.setViewportSize({ width: 1440, height: 900 });

  // An iron condor two strikes wide from the template.
  await page.getByTestId('strategy-button').click();
  const builder = page.getByRole('dialog', { name: /^Strategy builder/ });
  await builder.getByRole('combobox', { name: 'Template' }).selectOption('iron-condor');
  await builder.getByRole('spinbutton', { name: 'Width' }).fill('2');
  await builder.getByRole('button', { name: 'Apply template' }).click();
  await builder.getByTestId('strategy-leg').nth(3).waitFor();
  await page.locator('[data-testid="basket-margin-summary"][data-state="fresh"]').waitFor();
  await builder.getByRole('slider', { name: 'Days from now' }).fill('1');
  const dismiss = page.getByRole('button', { name: 'Dismiss', exact: true });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  const plot = builder.locator('.payoff svg');
  const box = await plot.boundingBox();
  if (box) await page.mouse.move(box.x + box.width * 0.62, box.y + box.height * 0.5);
  await page.screenshot({ path: join(outDir, 'strategy-builder.png') });
  await builder.getByRole('button', { name: 'Close' }).click();

  // The day on paper: a round trip in INFY, which the journal reads and pictures at its exit.
  await broker.place({
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transaction_type: 'BUY',
    quantity: 20,
    order_type: 'MARKET',
    product: 'MIS',
  });
  await broker.tick(30);
  await broker.place({
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transaction_type: 'SELL',
    quantity: 20,
    order_type: 'MARKET',
    product: 'MIS',
  });

  // The journal: a month of a trader's record from a Console tradebook, then the day on paper.
  await page.getByTestId('journal-button').click();
  const journal = page.getByRole('dialog', { name: 'Journal' });
  await journal.getByRole('combobox', { name: 'Equity trades were' }).selectOption('MIS');
  await journal.getByLabel('Import a Console tradebook CSV').setInputFiles({
    name: 'tradebook.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(consoleTradebook(Date.parse((await broker.marketStatus()).now))),
  });
  await journal.getByText(/^Imported \d+ fills/).waitFor();
  await journal.getByRole('button', { name: 'Sync now' }).click();
  await journal.getByText(/new fills?/).waitFor();
  // A few trades tagged, as a trader files them.
  const trades = journal.getByTestId('journal-trade');
  for (const [n, tags] of [
    [1, 'breakout'],
    [2, 'breakout, gap up'],
    [4, 'reversal'],
  ]) {
    await trades.nth(n).getByRole('button').click();
    const form = journal.getByRole('form', { name: 'Trade notes' });
    await form.getByRole('textbox', { name: /Tags/ }).fill(tags);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Saved').waitFor();
  }
  await trades.first().getByRole('button').click();
  const form = journal.getByRole('form', { name: 'Trade notes' });
  await form.getByRole('textbox', { name: /Tags/ }).fill('opening range');
  await form
    .getByRole('textbox', { name: /Note/ })
    .fill('Waited for the first 15 minutes; out when it stalled at the day high.');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByText('Saved').waitFor();
  await journal.locator('.jdetail__picture img').waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'journal.png') });
  console.log('wrote strategy-builder.png, strategy-chain.png and journal.png');
});
