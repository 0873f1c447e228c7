import type { Locator, Page } from '@playwright/test';
import { blotter, openDashboard, paperRead, paperToken } from './dashboard-helpers';
import { expect, quietHostPerFile, test } from './fixtures';

/**
 * The options desk end to end (docs/strategy.md): an iron condor built from the option chain —
 * four contracts added to the strategy with B / S — read in the builder (bounded profit and loss,
 * two breakevens, a credit) and placed as four orders through the exactly-once path, buys first.
 */

/**
 * A quiet host of this file's own (prices move only when a test moves them): the sells go only once
 * the buys have filled (docs/strategy.md §Placing), and a buy's protected limit is 2% above the
 * price the builder last saw. On a ticking market a far option can move more than that between the
 * chain's last read and the send on a loaded machine, so the buy rests and the sells rightly wait —
 * the spec's race, not the product's. A still market makes the fills this spec needs certain;
 * the wait itself is covered by electron/app/buys-first.test.ts on the real paper broker.
 */
const host = quietHostPerFile();

/** The chain's row of a strike. */
const row = (page: Page, strike: number): Locator =>
  page.getByRole('table', { name: 'Option chain' }).locator(`tr[data-strike="${strike}"]`);

test('an iron condor from the chain, placed as four orders, buys first', async ({ page }) => {
  await openDashboard(page, host());
  await page.getByRole('tab', { name: 'Option chain' }).click();
  const chain = page.getByRole('table', { name: 'Option chain' });
  await expect(chain.locator('tr.is-atm')).toHaveCount(1);
  const strikes = (await chain
    .locator('tr[data-strike]')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-strike'))))) as number[];
  const atm = Number(await chain.locator('tr.is-atm').getAttribute('data-strike'));
  const at = strikes.indexOf(atm);
  const [far, near, nearUp, farUp] = [strikes[at - 2]!, strikes[at - 1]!, strikes[at + 1]!, strikes[at + 2]!];

  await page.getByRole('combobox', { name: 'B/S add to' }).selectOption('strategy');
  await row(page, far)
    .getByRole('button', { name: /^Add BUY \S+PE to strategy$/ })
    .click();
  await row(page, near)
    .getByRole('button', { name: /^Add SELL \S+PE to strategy$/ })
    .click();
  await row(page, nearUp)
    .getByRole('button', { name: /^Add SELL \S+CE to strategy$/ })
    .click();
  await row(page, farUp)
    .getByRole('button', { name: /^Add BUY \S+CE to strategy$/ })
    .click();
  await page.getByRole('button', { name: 'Strategy (4)…' }).click();

  const builder = page.getByRole('dialog', { name: 'Strategy builder — NIFTY' });
  await expect(builder.getByTestId('strategy-leg')).toHaveCount(4);
  // The builder's first field has the focus.
  await expect(builder.getByRole('combobox', { name: 'Underlying' })).toBeFocused();
  // An iron condor: a credit, bounded both ways, profitable between two breakevens.
  await expect(builder.getByTestId('strategy-premium')).toHaveText(/^Credit ₹[\d,]+\.\d\d$/);
  await expect(builder.getByTestId('strategy-max-profit')).toHaveText(/^\+₹[\d,]+\.\d\d$/);
  await expect(builder.getByTestId('strategy-max-loss')).toHaveText(/^−₹[\d,]+\.\d\d$/);
  await expect(builder.getByTestId('strategy-breakevens')).toHaveText(/^[\d,]+ · [\d,]+$/);
  await expect(builder.getByTestId('payoff-breakeven')).toHaveCount(2);
  await expect(page.locator('[data-testid="basket-margin-summary"][data-state="fresh"]')).toBeVisible();

  await builder.getByRole('button', { name: 'Place 4 orders' }).click();
  const confirm = page.getByRole('dialog', { name: 'Place 4 orders?' });
  await expect(confirm.getByRole('listitem')).toHaveText([
    /^BUY 75 \S+PE @/,
    /^BUY 75 \S+CE @/,
    /^SELL 75 \S+PE @/,
    /^SELL 75 \S+CE @/,
  ]);
  await confirm.getByRole('button', { name: 'Place 4 orders' }).click();
  const outcomes = builder.getByTestId('leg-outcome');
  await expect(outcomes).toHaveCount(4);
  for (let n = 0; n < 4; n++) await expect(outcomes.nth(n)).toHaveAttribute('data-state', 'placed');

  // Four orders at the broker, each once, the two buys placed before the two sells.
  const token = await paperToken(host());
  const { orders } = await paperRead<{
    orders: Array<{ transaction_type: string; tradingsymbol: string; order_timestamp?: string; order_id: string }>;
  }>(host(), token, '/orders');
  const mine = orders.filter((o) => /^NIFTY.*(CE|PE)$/.test(o.tradingsymbol));
  expect(mine).toHaveLength(4);
  expect(new Set(mine.map((o) => o.tradingsymbol)).size).toBe(4);
  const byId = [...mine].sort((a, b) => (BigInt(a.order_id) < BigInt(b.order_id) ? -1 : 1));
  expect(byId.map((o) => o.transaction_type)).toEqual(['BUY', 'BUY', 'SELL', 'SELL']);
  await builder.getByRole('button', { name: 'Close' }).click();
  await expect(
    blotter(page)
      .locator('tbody tr')
      .filter({ hasText: /NIFTY\S+(CE|PE)/ }),
  ).toHaveCount(4);
});
