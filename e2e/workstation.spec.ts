import type { BrowserContext, Page } from '@playwright/test';
import { blotter, chooseSymbol, fillTicket, openDashboard, orderRow, placeOrder, ticket } from './dashboard-helpers';
import { docShotPath } from './dashboard-helpers';
import { expect, test } from './fixtures';
import { freshDataDir, launchHost, openFrontDoor } from './restartable-host';

/**
 * The workstation in the browser host (docs/workstation.md): a panel popped out of the main page
 * opens in a browser window of its own with its own bridge, driven by the one main process. Two
 * pages of one context, as a trader's two windows are.
 */

const chart = (page: Page) => page.getByRole('region', { name: /^Chart/ });
const legend = (page: Page) => chart(page).getByTestId('chart-legend');

/** Clicks a panel's "Pop out" in the main page and answers the pop-out's page once it is connected. */
async function popOut(main: Page, title: string): Promise<Page> {
  const opened = main.context().waitForEvent('page');
  await main.getByRole('button', { name: `Pop out ${title}`, exact: true }).click();
  const popout = await opened;
  await expect(popout.getByRole('status').first()).toContainText(/Connected to .+ as \S+/);
  return popout;
}

/** Picks a watchlist row, as a trader clicks it. */
async function pickOnWatchlist(page: Page, symbol: string): Promise<void> {
  await page.getByRole('table', { name: 'Instruments' }).getByRole('cell', { name: symbol, exact: true }).click();
}

/** Closes every pop-out and waits until the main page has their panels back (the next test starts from one window). */
async function closeOthers(context: BrowserContext, main: Page): Promise<void> {
  for (const p of context.pages()) if (p !== main) await p.close();
  await expect(main.getByText(/ is in window \d+\./)).toHaveCount(0, { timeout: 15_000 });
  for (const tab of ['Chart', 'Depth']) await expect(main.getByRole('tab', { name: tab, exact: true })).toBeVisible();
  await expect(ticket(main)).toBeVisible();
}

test('a ticket asked for on the main page fills in the popped-out ticket; an order placed there shows in the main page’s blotter', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  const popout = await popOut(page, 'Ticket');
  // The main page keeps a note of where the ticket went; the pop-out draws it alone.
  await expect(page.getByText('Ticket is in window 1.')).toBeVisible();
  await expect(popout.getByRole('table', { name: 'Orders' })).toHaveCount(0);

  // B on the main page's watchlist fills in the ticket where it is (nothing is sent).
  await page.getByRole('button', { name: 'Sell TCS', exact: true }).click();
  await expect(ticket(popout).getByRole('combobox', { name: 'Symbol' })).toHaveValue('TCS');
  await expect(ticket(popout).getByRole('radio', { name: 'Sell' })).toBeChecked();

  await chooseSymbol(popout, 'INFY', /^INFY NSE/);
  await fillTicket(popout, { side: 'Buy', quantity: '3', orderType: 'MARKET', product: 'MIS' });
  const orderId = await placeOrder(popout);
  await expect(orderRow(page, orderId)).toBeVisible();
  await expect(blotter(page)).toContainText('INFY');
  await closeOthers(page.context(), page);
});

test('a linked watchlist moves the chart in the other window; an unlinked chart keeps its own', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  await pickOnWatchlist(page, 'INFY');
  const popout = await popOut(page, 'Chart');
  await expect(legend(popout)).toContainText('INFY');
  // Both in group 1 (red): the chip says so by its number and name, not by colour alone.
  await expect(popout.getByRole('combobox', { name: 'Link group of Chart' })).toHaveValue('red');

  await pickOnWatchlist(page, 'TCS');
  await expect(legend(popout)).toContainText('TCS');

  await popout.getByRole('combobox', { name: 'Link group of Chart' }).selectOption('');
  await pickOnWatchlist(page, 'INFY');
  await expect(page.getByRole('table', { name: 'Instruments' }).locator('[aria-selected="true"]')).toContainText(
    'INFY',
  );
  await expect(legend(popout)).toContainText('TCS');

  await popout.getByRole('combobox', { name: 'Link group of Chart' }).selectOption('red');
  await expect(legend(popout)).toContainText('INFY');
  await closeOthers(page.context(), page);
});

test('closing a pop-out gives its panel back to the main page', async ({ page, host }) => {
  await openDashboard(page, host);
  const popout = await popOut(page, 'Chart');
  await expect(chart(popout)).toBeVisible();
  const chartTab = page.getByRole('tab', { name: 'Chart', exact: true });
  await expect(chartTab).toHaveCount(0);
  await popout.close();
  // The host counts a pop-out whose page has been gone for 3 s as closed.
  await expect(chartTab).toBeVisible({ timeout: 15_000 });
  await chartTab.click();
  await expect(chart(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pop out Chart', exact: true })).toBeVisible();
});

test('the launch key leaves the address bar once read; a reload and a pop-out still reach the desk', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);
  await page.reload();
  await expect(page.getByRole('status').first()).toContainText(/Connected to .+ as \S+/);
  const popout = await popOut(page, 'Chart');
  expect(new URL(popout.url()).searchParams.has('key')).toBe(false);
  expect(new URL(popout.url()).searchParams.get('window')).toMatch(/^w\d+$/);
  await expect(chart(popout)).toBeVisible();
  await closeOthers(page.context(), page);
});

test('the palette goes to a panel in another window, and opens a second chart there on an interval of its own', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  const popout = await popOut(page, 'Chart');
  await page.bringToFront();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox', { name: 'Find an instrument or an action' }).fill('go to chart');
  await expect(palette.getByRole('option').first()).toContainText('Go to: Chart (window 1)');
  await page.keyboard.press('Enter');
  await expect(popout.locator('[data-desk-panel="chart"]')).toBeFocused();

  // A second chart in the pop-out, unlinked on what was selected, with its own interval.
  await popout.keyboard.press('Control+k');
  const there = popout.getByRole('dialog', { name: 'Command palette' });
  await there.getByRole('combobox', { name: 'Find an instrument or an action' }).fill('another chart here');
  await popout.keyboard.press('Enter');
  const second = popout.getByRole('region', { name: /^Chart 2/ });
  await expect(second).toBeVisible();
  await expect(second.getByRole('combobox', { name: 'Link group of Chart 2' })).toHaveValue('');
  // The first chart's interval is its own (the desk keeps it), whatever the second one picks.
  const first = chart(popout).first();
  const firstInterval = await first.getByRole('radio', { checked: true }).getAttribute('aria-label');
  const other = firstInterval === '60minute' ? '15minute' : '60minute';
  await second.getByRole('radio', { name: other, exact: true }).click();
  await expect(second.getByRole('radio', { name: other, exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(first.getByRole('radio', { checked: true })).toHaveAttribute('aria-label', firstInterval!);
  await second.hover();
  await second.getByRole('button', { name: 'Move Chart 2 back to the main window' }).click();
  await expect(page.getByRole('tab', { name: 'Chart 2', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Chart 2', exact: true }).click();
  await page.getByRole('button', { name: 'Remove Chart 2' }).click();
  await expect(page.getByRole('tab', { name: 'Chart 2', exact: true })).toHaveCount(0);
  await closeOthers(page.context(), page);
});

test('workspaces export to a file and import from one; a file that does not fit names the field', async ({
  page,
  host,
}) => {
  await openDashboard(page, host);
  const menu = page.locator('details.workspaces');
  await menu.locator('summary').click();
  await menu.getByRole('textbox', { name: 'Workspace name' }).fill('Morning');
  await menu.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(menu.getByRole('status')).toHaveText('Saved “Morning”');

  const download = page.waitForEvent('download');
  await menu.getByRole('button', { name: 'Export…' }).click();
  const file = await (await download).path();
  const input = menu.getByLabel('Import workspaces from a file');
  await input.setInputFiles(file);
  await expect(menu.getByRole('status')).toHaveText('Imported Morning (2)');
  await expect(menu.getByRole('combobox', { name: 'Load workspace' }).getByRole('option')).toHaveText([
    'Choose…',
    'Morning',
    'Morning (2)',
  ]);

  const bad = {
    format: 'tradedesk-workspaces',
    version: 1,
    workspaces: [{ name: '', desk: {}, layouts: {}, tabs: {} }],
  };
  await input.setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bad)),
  });
  await expect(menu.getByRole('status')).toContainText('workspaces.0.name');
});

test('a saved workspace is there after a host restart, and loading it opens its windows', async ({ page }) => {
  const dataDir = freshDataDir();
  const door = await openFrontDoor();
  let current = await launchHost(dataDir);
  try {
    door.use(current.handle);
    await openDashboard(page, { ...current.handle, url: door.url });
    const popout = await popOut(page, 'Depth');
    await expect(popout.getByRole('region', { name: /^Depth/ })).toBeVisible();

    const menu = page.locator('details.workspaces');
    await menu.locator('summary').click();
    await menu.getByRole('textbox', { name: 'Workspace name' }).fill('Two screens');
    await menu.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(menu.getByRole('status')).toHaveText('Saved “Two screens”');

    // Back to one window before the restart: the workspace, not the live desk, brings the pop-out back.
    await expect(page.getByRole('tab', { name: 'Depth', exact: true })).toHaveCount(0);
    await popout.getByRole('button', { name: 'Move Depth back to the main window' }).click();
    await expect(page.getByRole('tab', { name: 'Depth', exact: true })).toBeVisible();
    await popout.close();

    door.use(null);
    await current.kill('SIGTERM');
    current = await launchHost(dataDir);
    door.use(current.handle);
    await page.reload();
    await expect(page.getByRole('status').first()).toContainText(/Connected to .+ as \S+/);

    await menu.locator('summary').click();
    const opened = page.context().waitForEvent('page');
    await menu.getByRole('combobox', { name: 'Load workspace' }).selectOption('Two screens');
    const restored = await opened;
    await expect(restored.getByRole('region', { name: /^Depth/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Depth', exact: true })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Holdings', exact: true })).toBeVisible();
  } finally {
    await closeOthers(page.context(), page);
    await current.kill('SIGTERM');
    await door.close();
  }
});

test('picture: two windows side by side, their panels in colour groups', async ({ page, host }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDashboard(page, host);
  await pickOnWatchlist(page, 'TCS');
  // The chart pops out beside a second chart in group 3 (blue); the main window's watchlist and depth stay in group 1 (red).
  const popout2 = await popOut(page, 'Chart');
  await popout2.setViewportSize({ width: 960, height: 720 });
  await popout2.keyboard.press('Control+k');
  const palette = popout2.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox', { name: 'Find an instrument or an action' }).fill('another chart here');
  await popout2.keyboard.press('Enter');
  const second = popout2.getByRole('region', { name: /^Chart 2/ });
  await second.getByRole('combobox', { name: 'Link group of Chart 2' }).selectOption('blue');
  await pickOnWatchlist(page, 'INFY');
  await expect(legend(popout2).first()).toContainText('INFY');
  await expect(second.getByTestId('chart-legend')).toContainText('TCS');
  await expect(chart(popout2).first().getByRole('progressbar')).toHaveCount(0);
  await expect(second.getByRole('progressbar')).toHaveCount(0);

  const left = (await page.screenshot()).toString('base64');
  const right = (await popout2.screenshot()).toString('base64');
  const board = await page.context().newPage();
  await board.setViewportSize({ width: 2300, height: 760 });
  await board.setContent(
    `<body style="margin:0;background:#05070b;display:flex;gap:20px;padding:20px">` +
      `<img src="data:image/png;base64,${left}" width="1280" height="720">` +
      `<img src="data:image/png;base64,${right}" width="960" height="720"></body>`,
  );
  await board.screenshot({ path: docShotPath('workstation-two-windows.png') });
  await board.close();
  await closeOthers(page.context(), page);
});
