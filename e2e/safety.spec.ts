import type { Page } from '@playwright/test';
import { deskOn, expect, quietHostPerTest, test } from './fixtures';
import { docShotPath } from './dashboard-helpers';

/**
 * The trader's safety net through the browser host against the paper broker (docs/contract.md
 * §Risk guard, §Kill switch): limits set in the dialog and enforced by main, the kill switch,
 * "Cancel all" of a symbol and "Exit selected". Each test gets its own quiet host (prices move
 * only when the test moves them), so limits and positions never leak between tests.
 */

const quietHost = quietHostPerTest();

const runDialog = (page: Page) => page.getByRole('dialog').filter({ has: page.getByTestId('safety-headline') });

test('risk limits: a soft limit asks and "Place anyway" places; a hard one refuses; the loss limit blocks buys but lets the exit through', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  const infy = await desk.setSymbolPrice('NSE', 'INFY', 1500);
  await desk.open();
  await desk.setLimits({
    'Max order value': { value: '50000', hard: false },
    'Max quantity': { value: '100', hard: true },
  });

  await desk.chooseSymbol('INFY', /^INFY NSE/);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '40', price: '1500' });
  await desk.ticket.getByRole('button', { name: 'Place order' }).click();
  const refusal = desk.ticket.getByTestId('risk-refusal');
  await expect(refusal).toContainText('Over your soft risk limits:');
  await expect(refusal).toContainText('Order value ₹60,000 exceeds your limit of ₹50,000');
  await expect(desk.blotter.locator('tr[data-order-id]')).toHaveCount(0);
  await refusal.getByRole('button', { name: 'Place anyway' }).click();
  await expect(desk.ticket.getByTestId('ticket-order-id')).toHaveText(/\S+/);
  await expect(refusal).toBeHidden();

  await desk.fillTicket({ quantity: '150', price: '300' });
  await desk.ticket.getByRole('button', { name: 'Place order' }).click();
  await expect(refusal).toContainText('Refused by your risk limits:');
  await expect(refusal).toContainText('Quantity 150 exceeds your limit of 100');
  await expect(refusal.getByRole('button', { name: 'Place anyway' })).toHaveCount(0);

  // A day that loses more than the hard loss limit: buys stop, the exit goes through.
  await desk.setLimits({ 'Daily loss limit': { value: '1000', hard: true } });
  await desk.setPrice(infy, 1450); // the 40 bought at 1,500 lose ₹2,000
  await desk.fillTicket({ orderType: 'MARKET', quantity: '1' });
  await desk.ticket.getByRole('button', { name: 'Place order' }).click();
  await expect(refusal).toContainText('Daily loss limit of ₹1,000 reached');
  await expect(page.getByTestId('risk-chip')).toContainText('Loss limit reached: exits only');
  await expect(page.getByTestId('risk-banner')).toContainText('only exits are allowed today');
  // The header keeps everything on one line, the chip and the kill switch included.
  const header = page.locator('header.topbar');
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect
      .poll(() => header.evaluate((h) => h.scrollWidth - h.clientWidth), `at ${width} px`)
      .toBeLessThanOrEqual(1);
    await expect(page.getByRole('button', { name: /Switch to (light|dark) theme/ })).toBeInViewport();
  }
  await expect(page.getByTestId('risk-chip')).toHaveAttribute('title', /only exits are allowed today/);
  await page.setViewportSize({ width: 1440, height: 900 });

  // The ticket scrolled to show the refusal: the side toggle is clicked as a trader would, by its label.
  await desk.ticket.locator('label.side--sell').click();
  await desk.fillTicket({ orderType: 'MARKET', quantity: '30' }); // under the value limit too
  const exitId = await desk.placeOrder();
  await expect(desk.orderRow(exitId)).toContainText('COMPLETE');
});

test('kill switch (hotkey + confirmation): every working order cancelled and the position exited, each shown done', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '5' });
  await desk.placeOrder();
  await desk.fillTicket({ orderType: 'LIMIT', quantity: '2', price: '1450' });
  const a = await desk.placeOrder();
  await desk.fillTicket({ orderType: 'LIMIT', quantity: '3', price: '1440' });
  const b = await desk.placeOrder();
  await desk.fillTicket({ side: 'Sell', orderType: 'SL', quantity: '1', price: '1400', triggerPrice: '1410' });
  const c = await desk.placeOrder();
  await expect(desk.orderRow(c)).toContainText('TRIGGER PENDING');

  await page.locator('body').press('Control+Shift+K');
  const confirm = page.getByRole('dialog', { name: 'Kill switch' });
  await expect(confirm).toContainText('Cancel every working order (3 on screen');
  await confirm.getByLabel(/Also exit every open position \(1\)/).check();
  await confirm.getByRole('button', { name: 'Cancel all and exit' }).click();

  const run = runDialog(page);
  await expect(run.getByTestId('safety-headline')).toHaveText(
    '3 of 3 orders cancelled, 1 of 1 exit order placed — nothing is left open',
  );
  for (const id of [a, b, c]) {
    await expect(run.locator(`tr[data-step="c-${id}"]`)).toContainText('Cancelled');
  }
  await expect(run.locator('tr[data-step="x1"]')).toContainText(/SELL.*5.*Exit.*Done.*Exit order \S+ placed/);
  await expect(run.getByTestId('still-open')).toContainText('Nothing.');
  await run.getByRole('button', { name: 'Done' }).click();
  for (const id of [a, b, c]) await expect(desk.orderRow(id)).toContainText('CANCELLED');
  await expect(desk.netQty('INFY')).toHaveText('0');
});

test('"Cancel all…" of one symbol from the blotter, and "Exit selected" of one position', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  const [infy, sbin] = [await desk.instrumentToken('NSE', 'INFY'), await desk.instrumentToken('NSE', 'SBIN')];
  await desk.setPrice(infy, 1500);
  await desk.setPrice(sbin, 800);
  await desk.open();
  await desk.chooseSymbol('INFY', /^INFY NSE/);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: '1450' });
  const i1 = await desk.placeOrder();
  const i2 = await desk.placeOrder();
  await desk.fillTicket({ orderType: 'MARKET', quantity: '4' });
  await desk.placeOrder();
  await desk.chooseSymbol('SBIN', /^SBIN NSE/);
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '1', price: '780' });
  const s1 = await desk.placeOrder();
  await desk.fillTicket({ orderType: 'MARKET', quantity: '3' });
  await desk.placeOrder();

  await page.getByRole('combobox', { name: 'Cancel all orders of a symbol' }).selectOption({ label: 'INFY (2)' });
  await page
    .getByRole('dialog', { name: 'Cancel all INFY' })
    .getByRole('button', { name: 'Cancel all INFY orders' })
    .click();
  const run = runDialog(page);
  await expect(run.getByTestId('safety-headline')).toHaveText('2 of 2 orders cancelled — nothing is left open');
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(desk.orderRow(i1)).toContainText('CANCELLED');
  await expect(desk.orderRow(i2)).toContainText('CANCELLED');
  await expect(desk.orderRow(s1)).toContainText('OPEN');

  const positions = page.getByRole('table', { name: 'Positions' });
  await positions.getByRole('checkbox', { name: 'Select INFY MIS' }).check();
  await page.getByRole('button', { name: 'Exit selected (1)' }).click();
  await page.getByRole('dialog', { name: 'Exit positions' }).getByRole('button', { name: 'Exit position' }).click();
  await expect(run.getByTestId('safety-headline')).toHaveText(
    'No working orders, 1 of 1 exit order placed — nothing is left open',
  );
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(desk.netQty('INFY')).toHaveText('0');
  await expect(desk.netQty('SBIN')).toHaveText('+3');
  await expect(desk.orderRow(s1)).toContainText('OPEN');
});

test('kill switch with the broker failing every request: it claims only what the broker holds', async ({ page }) => {
  const desk = deskOn(page, quietHost());
  await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: '1450' });
  const id = await desk.placeOrder();
  // Every request answered 5xx, half of them after the broker acted: a cancel may or may not
  // have happened. The run takes the order from main's book (the stream still pushes), so it
  // tries; what it reports must be what the broker holds (docs/contract.md §Kill switch).
  await desk.setFaults({ server_error: 1 });
  await page.getByRole('button', { name: 'Kill switch' }).click();
  await page.getByRole('dialog', { name: 'Kill switch' }).getByRole('button', { name: 'Cancel all orders' }).click();
  const run = runDialog(page);
  const headline = run.getByTestId('safety-headline');
  await expect(headline).toHaveAttribute('data-state', /^(done|incomplete)$/, { timeout: 60_000 });
  const said = (await headline.textContent()) ?? '';
  await desk.setFaults({});
  await run.getByRole('button', { name: 'Done' }).click();
  if (said.startsWith('1 of 1 order cancelled')) await expect(desk.orderRow(id)).toContainText('CANCELLED');
  else {
    expect(said).toBe('0 of 1 order cancelled — 1 item still open');
    await expect(desk.orderRow(id)).toContainText('OPEN');
  }
});

test('kill switch while the broker throttles: the run says it waits out the 429s, and Stop ends it with the order listed still open', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.openOnInfy();
  await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', product: 'MIS', quantity: '2', price: '1450' });
  const id = await desk.placeOrder();
  // Every request answered 429 with Retry-After 30 s: the run waits it out, round after round,
  // until every order is settled or the trader stops it (docs/contract.md §Kill switch).
  await desk.setFaults({ rate_limit: 1, retry_after_s: 30 });
  await page.getByRole('button', { name: 'Kill switch' }).click();
  await page.getByRole('dialog', { name: 'Kill switch' }).getByRole('button', { name: 'Cancel all orders' }).click();
  const run = runDialog(page);
  const headline = run.getByTestId('safety-headline');
  await expect(headline).toHaveText(
    'Cancelling 1 order… The broker is throttling (429): waiting 30 s as it asks, then going on until every order is settled (Stop ends it)',
  );
  await expect(run.getByRole('row', { name: /INFY/ })).toContainText('The broker asked to wait 30 s (429)');
  await page.screenshot({ path: test.info().outputPath('kill-switch-throttled.png') });
  // The storm passes, but the trader stops the run first: nothing more is sent.
  await desk.setFaults({});
  await run.getByRole('button', { name: 'Stop' }).click();
  await expect(headline).toHaveText('Stopped: 0 of 1 order cancelled — 1 item still open');
  await expect(headline).toHaveAttribute('data-state', 'incomplete');
  await expect(run.getByTestId('still-open')).toContainText(`Order ${id} BUY 2 INFY — OPEN`);
  await page.screenshot({ path: test.info().outputPath('kill-switch-stopped.png') });
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(desk.orderRow(id)).toContainText('OPEN');
});

test('price alerts: added in the dialog with sound, fired by main from the stream as a toast and one tone, edited to arm again, deleted', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  const infy = await desk.setSymbolPrice('NSE', 'INFY', 1500);
  // Counts the tones the page starts (docs/contract.md §Alert notifications): Chromium's own
  // AudioContext, with each oscillator started noted.
  await page.addInitScript(() => {
    const w = window as unknown as { tones: number };
    w.tones = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args: Parameters<typeof start>) {
      w.tones += 1;
      return start.apply(this, args);
    };
  });
  await desk.open();
  await page.getByTestId('alerts-button').click();
  const dialog = page.getByRole('dialog', { name: 'Price alerts' });
  await expect(dialog.getByRole('button', { name: 'Add alert' })).toBeEnabled(); // the instrument list has loaded
  await dialog.getByLabel('Alert symbol').fill('INFY NSE');
  await dialog.getByLabel('Alert condition').selectOption('above');
  await dialog.getByLabel('Alert price').fill('1510');
  // The browser host has no OS notifications: the flag is kept, and the page's toast is the notification.
  await dialog.getByRole('checkbox', { name: 'OS notification' }).check();
  await dialog.getByRole('checkbox', { name: 'Sound' }).check();
  await dialog.getByRole('button', { name: 'Add alert' }).click();
  const row = dialog.getByRole('row', { name: /INFY above 1,510\.00/ });
  await expect(row).toContainText('Armed');
  await expect(row).toContainText('OS notification, sound');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('alerts-button')).toHaveText('Alerts (1 armed)');

  await desk.setPrice(infy, 1512);
  await expect(page.getByLabel('Notifications')).toContainText('Alert: INFY above 1,510.00');
  await expect(page.getByLabel('Notifications')).toContainText('LTP 1,512.00');
  await expect.poll(() => page.evaluate(() => (window as unknown as { tones: number }).tones)).toBe(1);
  await expect(page.getByTestId('alerts-button')).toHaveText('Alerts (0 armed)');

  await page.getByTestId('alerts-button').click();
  await expect(row).toContainText('Fired');
  await dialog.getByRole('button', { name: 'Edit INFY above 1,510.00' }).click();
  await dialog.getByLabel('Price', { exact: true }).fill('1530');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('row', { name: /INFY above 1,530\.00/ })).toContainText('Armed');
  await dialog.getByRole('button', { name: 'Delete INFY above 1,530.00' }).click();
  await expect(dialog.getByRole('table', { name: 'Alerts' })).toContainText('No alerts');
});

test('kill switch when the positions cannot be read: "Positions unknown: not readable for N s — check with your broker", never "Nothing", and trading stays off until re-armed', async ({
  page,
}) => {
  const desk = deskOn(page, quietHost());
  await desk.openOnInfy();
  // Every read answered 429 (Retry-After 30 s) and the stream cut: a fill after main's last
  // positions read that main cannot see.
  await desk.setFaults({ read_rate_limit: 1, retry_after_s: 30 });
  await desk.setStreamAccepting(false);
  await expect(page.getByTestId('stream-state')).not.toHaveAttribute('data-state', 'open');
  await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '5' });
  await desk.placeOrder();

  await page.locator('body').press('Control+Shift+K');
  const confirm = page.getByRole('dialog', { name: 'Kill switch' });
  await confirm.getByLabel(/Also exit every open position/).check();
  await confirm.getByRole('button', { name: 'Cancel all and exit' }).click();

  const run = runDialog(page);
  await expect(run.getByTestId('safety-headline')).toContainText(
    /Positions unknown: not readable for \d+ s — check with your broker\. The broker asked to wait 30 s \(429\)/,
  );
  await expect(run.getByTestId('positions-unknown')).toHaveText(
    /^Positions unknown: not readable for \d+ s — check with your broker$/,
  );
  await run.getByRole('button', { name: 'Stop' }).click();
  await expect(run.getByTestId('safety-headline')).toHaveAttribute('data-state', 'incomplete');
  const open = run.getByTestId('still-open');
  await expect(open).toContainText(/Positions unknown: not readable for \d+ s — check with your broker/);
  await expect(open).not.toContainText('Nothing');
  await page.screenshot({ path: docShotPath('kill-switch-positions-unknown.png') });

  // The barrier holds until the trader re-arms; the header says so while the dialog is closed.
  await expect(run.getByTestId('safety-barrier')).toContainText('until you re-arm it');
  await run.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('trading-off').click();
  await run.getByRole('button', { name: 'Re-arm trading' }).click();
  await expect(run.getByTestId('safety-barrier')).toBeHidden();
  await expect(page.getByTestId('trading-off')).toBeHidden();
  await desk.setFaults({});
});
