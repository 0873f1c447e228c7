#!/usr/bin/env node
// Screenshots of the strategy builder for the README: docs/strategy-builder.png (an iron condor
// on NIFTY from the template: the payoff at expiry and today, breakevens, figures, Greeks and
// the margin with the hedge) and docs/strategy-chain.png (the option chain with its Greeks, PCR
// and max pain). Starts the browser host with its paper broker (control interface on), then drives
// the real renderer in Debian's Chromium.
//
// Usage: npm run build && node scripts/screenshot-strategy.mjs [--out docs]
import { chromium } from '@playwright/test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freshDataDir, outDirFromArgs, startHost } from './lib/screenshot-host.mjs';

const outDir = outDirFromArgs();
const dataDir = freshDataDir('strategy-shots');

const { child, ready } = startHost(dataDir, ['--paper-tick-ms', '0']);
let browser;
try {
  const { url } = await ready;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url);
  await page
    .getByRole('status')
    .filter({ hasText: /Connected to/ })
    .waitFor();

  // The chain with its Greeks.
  await page.getByRole('tab', { name: 'Option chain' }).click();
  await page.getByRole('table', { name: 'Option chain' }).locator('tr.is-atm').waitFor();
  await page.getByRole('checkbox', { name: 'Greeks' }).check();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'strategy-chain.png') });

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
  console.log('wrote strategy-builder.png and strategy-chain.png');
} finally {
  await browser?.close();
  child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
