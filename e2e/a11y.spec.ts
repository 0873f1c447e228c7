import type { Locator, Page } from '@playwright/test';
import { expectAccessible, seriousViolations } from './axe';
import { deskOn, expect, quietHostPerFile, startHost, test, type Desk } from './fixtures';

/**
 * Accessible screens (docs/renderer.md §Accessibility checks): axe-core over every screen and
 * dialog of the desk, in the dark theme and in the light one, with orders, a position, a GTT and
 * an alert on screen so the rows are there to be checked. No serious or critical finding.
 */

const quiet = quietHostPerFile();

type Theme = 'dark' | 'light';

/** Opens the desk in `theme` (dark is the default; the header's switch gives the light one). */
async function openIn(desk: Desk, theme: Theme): Promise<void> {
  const { page } = desk;
  await desk.open();
  if (theme === 'light') await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** A working BUY and SELL of INFY and a filled BUY (a position and a trade), from the ticket. */
async function fillTheDesk(desk: Desk): Promise<{ working: string }> {
  await desk.setSymbolPrice('NSE', 'INFY', 1500);
  await desk.chooseSymbol('INFY', /^INFY NSE/);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '1400' });
  const working = await desk.placeOrder();
  await desk.fillTicket({ side: 'Sell', price: '1600' });
  await desk.placeOrder();
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', quantity: '2' });
  const filled = await desk.placeOrder();
  await expect(desk.orderRow(filled)).toContainText('COMPLETE');
  await expect(desk.orderRow(working)).toContainText('OPEN');
  await expect(desk.page.getByRole('table', { name: 'Positions' }).getByRole('row', { name: /INFY/ })).toBeVisible();
  return { working };
}

/** Shows a tab of a slot and waits for what it draws. */
async function showTab(page: Page, tab: string, shows: string): Promise<void> {
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('table', { name: shows })).toBeVisible();
}

/** A dialog just opened has its focus inside it and not on its × (on `focused` when given). */
async function expectFocusStartsInside(dialog: Locator, focused?: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  if (focused) await expect(focused).toBeFocused();
  const where = await dialog.evaluate((d) => ({
    inside: d.contains(document.activeElement),
    onHead: document.activeElement?.closest('.dialog__head') !== null,
  }));
  expect(where, 'the focus starts in the dialog, not on its ×').toEqual({ inside: true, onHead: false });
}

/** Runs axe on the open dialog named `name`, then closes it with Esc. */
async function checkDialog(page: Page, name: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, `the dialog ${String(name)}`, '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** A dialog just opened: where its focus starts, then axe, then Esc. */
async function checkOpenedDialog(page: Page, name: string | RegExp, focused?: Locator): Promise<void> {
  await expectFocusStartsInside(page.getByRole('dialog', { name }), focused);
  await checkDialog(page, name);
}

/**
 * Colour is never the only sign: every figure coloured as a gain or a loss carries a sign in its
 * text (+, −, ▲, ▼), and everything coloured as a side says the side (BUY, Sell, B, bid…) or a sign.
 */
async function expectSignsBesideColour(page: Page, what: string): Promise<void> {
  const bare = await page.locator('.up, .down, .buy, .sell').evaluateAll((els) =>
    els
      .filter((e) => e.checkVisibility() && (e.textContent ?? '').trim() !== '')
      .map((e) => ({
        side: e.matches('.buy, .sell'),
        text: `${e.textContent ?? ''} ${e.getAttribute('aria-label') ?? ''}`,
      }))
      .filter(({ side, text }) => !/[+−▲▼-]/.test(text) && !(side && /\b(BUY|SELL|Buy|Sell|B|S|bid|ask)\b/.test(text)))
      .map(({ text }) => text.trim()),
  );
  expect.soft(bare, `${what}: coloured without a sign`).toEqual([]);
}

for (const theme of ['dark', 'light'] as const) {
  test(`${theme} theme: the workspace, every tab and every dialog pass axe`, async ({ page }) => {
    test.setTimeout(180_000);
    const desk = deskOn(page, quiet());
    await openIn(desk, theme);
    const { working } = await fillTheDesk(desk);
    await page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row]').first().click();
    await expect(page.getByRole('table', { name: 'Market depth' })).toBeVisible();

    await test.step('workspace: ticket, watchlist, chart, funds, depth, blotter, positions', async () => {
      await expectAccessible(page, 'the workspace');
      await expectSignsBesideColour(page, 'the workspace');
    });

    await test.step('the other tabs: option chain, ladder, holdings, trades, GTT, basket', async () => {
      await showTab(page, 'Option chain', 'Option chain');
      await expect(page.getByRole('table', { name: 'Option chain' }).getByRole('button').first()).toBeVisible();
      await expectAccessible(page, 'the option chain', '.panel:has(table[aria-label="Option chain"])');
      await expectSignsBesideColour(page, 'the option chain');
      await showTab(page, 'Ladder', 'Price ladder');
      await expectAccessible(page, 'the price ladder', '.panel:has(table[aria-label="Price ladder"])');
      await expectSignsBesideColour(page, 'the price ladder');
      await showTab(page, 'Holdings', 'Holdings');
      await expectAccessible(page, 'holdings', '.panel:has(table[aria-label="Holdings"])');
      await showTab(page, 'Trades', 'Trades');
      await expectAccessible(page, 'the trades', '.panel:has(table[aria-label="Trades"])');
      await expectSignsBesideColour(page, 'the trades');
      await desk.ticket.getByRole('button', { name: /^Add to basket/ }).click();
      await showTab(page, 'Basket', 'Basket legs');
      await expectAccessible(page, 'the basket', '.panel:has(table[aria-label="Basket legs"])');
    });

    await test.step('order dialogs: history and modify', async () => {
      await page.getByRole('tab', { name: 'Orders' }).click();
      await page.getByRole('tab', { name: 'Positions' }).click();
      await desk.orderRow(working).locator('td.sym').click();
      await checkOpenedDialog(page, new RegExp(`^Order ${working}`));
      await desk
        .orderRow(working)
        .getByRole('button', { name: `Modify ${working}` })
        .click();
      const modify = page.getByRole('dialog', { name: `Modify order ${working}` });
      await checkOpenedDialog(page, `Modify order ${working}`, modify.getByLabel('Quantity'));
    });

    await test.step('GTT: the form, and the panel with one', async () => {
      await page.getByRole('button', { name: 'GTT INFY MIS' }).click();
      const gtt = page.getByRole('dialog', { name: /GTT · INFY NSE/ });
      await expectFocusStartsInside(gtt, gtt.getByLabel('Type'));
      await expectAccessible(page, 'the GTT form', '[role="dialog"]');
      await gtt.getByRole('button', { name: 'Create GTT' }).click();
      await expect(gtt.getByTestId('gtt-outcome')).toHaveText(/^GTT \d+ created$/);
      await expectAccessible(page, 'the GTT outcome', '[role="dialog"]');
      await gtt.getByRole('button', { name: 'Done' }).click();
      await showTab(page, 'GTT', 'GTT');
      await expectAccessible(page, 'the GTT panel', '.panel:has(table[aria-label="GTT"])');
      await page.getByRole('tab', { name: 'Orders' }).click();
    });

    await test.step('price alerts, risk limits, drift, watchlists', async () => {
      await page.getByRole('button', { name: /^Alerts/ }).click();
      const alerts = page.getByRole('dialog', { name: 'Price alerts' });
      await expect(alerts.getByRole('button', { name: 'Add alert' })).toBeEnabled();
      await expectFocusStartsInside(alerts, alerts.getByLabel('Alert symbol'));
      await alerts.getByLabel('Alert symbol').fill('INFY NSE');
      // The file's host is shared by both themes: each adds its own alert.
      const price = theme === 'dark' ? '1700' : '1710';
      await alerts.getByLabel('Alert price').fill(price);
      await alerts.getByRole('button', { name: 'Add alert' }).click();
      await expect(
        alerts.getByRole('table', { name: 'Alerts' }).getByRole('row', { name: `INFY above 1,${price.slice(1)}.00` }),
      ).toBeVisible();
      await checkDialog(page, 'Price alerts');

      await page.getByTestId('risk-chip').click();
      await checkOpenedDialog(
        page,
        'Risk limits',
        page.getByRole('dialog').getByLabel('Max order value', { exact: true }),
      );

      await page.getByTestId('drift-chip').click();
      await checkOpenedDialog(page, 'Drift from the broker');

      await page.getByRole('button', { name: 'Manage watchlists' }).click();
      await checkOpenedDialog(page, 'Watchlists');
    });

    await test.step('the keyboard overlays: command palette and shortcuts sheet', async () => {
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      const find = palette.getByRole('combobox', { name: 'Find an instrument or an action' });
      await expectFocusStartsInside(palette, find);
      await find.fill('sell infy');
      await expect(palette.getByRole('option').first()).toContainText('INFY');
      await checkDialog(page, 'Command palette');
      await page.getByRole('table', { name: 'Instruments' }).locator('tr[data-watch-row]').first().focus();
      await page.keyboard.press('?');
      await checkOpenedDialog(page, 'Keyboard shortcuts');
    });

    await test.step('kill switch: the confirmation, then the run and its results', async () => {
      await page.getByRole('button', { name: 'Kill switch' }).click();
      const confirm = page.getByRole('dialog', { name: 'Kill switch' });
      await expectFocusStartsInside(confirm, confirm.getByRole('button', { name: 'Cancel all orders' }));
      await expectAccessible(page, 'the kill switch confirmation', '[role="dialog"]');
      await confirm.getByRole('checkbox', { name: /Also exit every open position/ }).check();
      await confirm.getByRole('button', { name: 'Cancel all and exit' }).click();
      const run = page.getByRole('dialog').filter({ has: page.getByTestId('safety-headline') });
      await expect(run.getByTestId('safety-headline')).toContainText('nothing is left open', { timeout: 30_000 });
      await expectAccessible(page, 'the kill switch run', '[role="dialog"]');
      await page.keyboard.press('Escape');
      await expect(run).toBeHidden();
    });

    await test.step('the workspace after the run (cancelled orders, a closed position, toasts)', async () => {
      await expectAccessible(page, 'the workspace after the kill switch');
      await expectSignsBesideColour(page, 'the workspace after the kill switch');
      // The kill switch's barrier stays up until the trader re-arms (the host is shared by the file's tests).
      await page.getByTestId('trading-off').click();
      const run = page.getByRole('dialog').filter({ has: page.getByTestId('safety-headline') });
      await run.getByRole('button', { name: 'Re-arm trading' }).click();
      await expect(page.getByTestId('trading-off')).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(run).toBeHidden();
    });

    await test.step('the strategy builder (an iron condor) and positions by underlying', async () => {
      await page.getByTestId('strategy-button').click();
      const builder = page.getByRole('dialog', { name: /^Strategy builder/ });
      await expectFocusStartsInside(builder, builder.getByRole('combobox', { name: 'Underlying' }));
      await builder.getByRole('combobox', { name: 'Template' }).selectOption('iron-condor');
      await builder.getByRole('button', { name: 'Apply template' }).click();
      await expect(builder.getByTestId('strategy-leg')).toHaveCount(4);
      await expect(builder.getByTestId('strategy-max-profit')).toHaveText(/₹/);
      await expectAccessible(page, 'the strategy builder', '[role="dialog"]');
      await expectSignsBesideColour(page, 'the strategy builder');
      await page.keyboard.press('Escape');
      await expect(builder).toBeHidden();
      await page.getByRole('checkbox', { name: 'By underlying' }).check();
      await expectAccessible(
        page,
        'positions by underlying',
        '.panel:has(table[aria-label="Positions by underlying"])',
      );
      await page.getByRole('checkbox', { name: 'By underlying' }).uncheck();
    });

    await test.step('the journal, with the trade the kill switch closed opened', async () => {
      await page.getByTestId('journal-button').click();
      const journal = page.getByRole('dialog', { name: 'Journal' });
      await expectFocusStartsInside(journal, journal.getByRole('button', { name: 'Previous month' }));
      await journal.getByRole('button', { name: 'Sync now' }).click();
      await journal.getByTestId('journal-trade').first().getByRole('button').click();
      await expect(journal.getByRole('form', { name: 'Trade notes' })).toBeVisible();
      await expectAccessible(page, 'the journal', '[role="dialog"]');
      await expectSignsBesideColour(page, 'the journal');
      await page.keyboard.press('Escape');
      await expect(journal).toBeHidden();
    });
  });

  test(`${theme} theme: the session dialog passes axe`, async ({ page }) => {
    // A desk with a broker profile and no token starts logged out, on the session dialog.
    const loggedOut = await startHost([
      '--broker',
      'kite',
      '--broker-url',
      'http://127.0.0.1:9/kite',
      '--api-key',
      'k',
    ]);
    try {
      // The dialog covers the header's theme switch: the theme is the one saved from before.
      await page.addInitScript((t) => {
        localStorage.setItem('tradedesk.settings', JSON.stringify({ state: { theme: t }, version: 1 }));
      }, theme);
      await page.goto(loggedOut.handle.url);
      const dialog = page.getByRole('dialog', { name: 'Log in to a broker' });
      await expect(dialog).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expectFocusStartsInside(dialog, dialog.getByRole('radio', { name: /Paper broker/ }));
      await expectAccessible(page, 'the session dialog (paper)', '[role="dialog"]');
      for (const kind of [/REST broker/, /Zerodha Kite/]) {
        await dialog.getByRole('radio', { name: kind }).check();
        await expectAccessible(page, `the session dialog (${String(kind)})`, '[role="dialog"]');
      }
    } finally {
      await loggedOut.stop();
    }
  });
}

test('the check can fail: a nameless button and grey-on-grey text are found', async ({ page }) => {
  await deskOn(page, quiet()).open();
  await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.id = 'axe-probe';
    probe.style.cssText = 'position:fixed;top:40px;left:40px;z-index:9999;background:#fff';
    probe.innerHTML = '<button type="button"></button><p style="color:#777;background:#888">low contrast</p>';
    document.body.append(probe);
  });
  const found = await seriousViolations(page, '#axe-probe');
  expect(found.some((f) => f.includes('button-name'))).toBe(true);
  expect(found.some((f) => f.includes('color-contrast'))).toBe(true);
});
