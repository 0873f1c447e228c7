import { expect, test } from './fixtures';

test.describe('dashboard: orders from the ticket to the blotter', () => {
  test('the Buy and Sell buttons keep their colour under the pointer, in both themes', async ({ page, desk }) => {
    await desk.open();
    await desk.chooseSymbol('INFY', /^INFY NSE/);
    await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '1' });
    const place = desk.ticket.getByRole('button', { name: 'Place order' });
    const background = () => place.evaluate((b) => getComputedStyle(b).backgroundColor);
    for (const theme of ['dark', 'light']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      for (const side of ['Buy', 'Sell'] as const) {
        await desk.fillTicket({ side });
        await page.mouse.move(0, 0);
        const resting = await background();
        await place.hover();
        // Brighter (a filter), but the side's own colour, never a plain button's grey.
        await expect.poll(background).toBe(resting);
      }
    }
  });

  test('MARKET and LIMIT orders placed from the ticket show in the blotter with the right status', async ({
    page,
    desk,
  }) => {
    await desk.setSymbolPrice('NSE', 'INFY', 1500);
    await desk.open();

    await desk.chooseSymbol('INFY', /^INFY NSE/);
    await desk.fillTicket({ side: 'Buy', orderType: 'MARKET', product: 'MIS', quantity: '3' });
    await expect(desk.ticket.getByTestId('margin-required')).toHaveText(/₹/);
    const marketId = await desk.placeOrder();
    await expect(desk.ticket.getByTestId('ticket-order-status')).toHaveText('COMPLETE');
    await expect(desk.orderRow(marketId)).toContainText('COMPLETE');
    await expect(desk.orderRow(marketId)).toContainText('3/3');

    await desk.fillTicket({ orderType: 'LIMIT', price: '1350', quantity: '2' });
    const limitId = await desk.placeOrder();
    await expect(desk.orderRow(limitId)).toContainText('OPEN');
    await expect(desk.orderRow(limitId)).toContainText('1,350.00');
    await expect(desk.orderRow(limitId)).toContainText('0/2');

    // The position from the MARKET fill, and a toast for it.
    await expect(page.getByRole('table', { name: 'Positions' })).toContainText('INFY');
    await expect(page.getByLabel('Notifications')).toContainText(/Complete: BUY 3 INFY/);
  });

  test('an SL order waits in TRIGGER PENDING, then completes when the price crosses its trigger', async ({ desk }) => {
    const sbin = await desk.setSymbolPrice('NSE', 'SBIN', 880);
    await desk.open();

    await desk.chooseSymbol('SBIN', /^SBIN NSE/);
    await desk.fillTicket({ side: 'Buy', orderType: 'SL', quantity: '5', price: '915', triggerPrice: '912' });
    const id = await desk.placeOrder();
    await expect(desk.orderRow(id)).toContainText('TRIGGER PENDING');

    await desk.setPrice(sbin, 913);
    await expect(desk.orderRow(id)).toContainText('COMPLETE');
    await expect(desk.ticket.getByTestId('ticket-order-status')).toHaveText('COMPLETE');
  });

  test('a working order is modified and then cancelled from the blotter, and its history opens', async ({
    page,
    desk,
  }) => {
    await desk.setSymbolPrice('NSE', 'TCS', 3050);
    await desk.open();

    await desk.chooseSymbol('TCS', /^TCS NSE/);
    await desk.fillTicket({ side: 'Buy', orderType: 'LIMIT', quantity: '1', price: '2800' });
    const id = await desk.placeOrder();
    const row = desk.orderRow(id);
    await expect(row).toContainText('OPEN');

    await row.getByRole('button', { name: `Modify ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Modify order ${id}` });
    await dialog.getByLabel('Quantity').fill('4');
    await dialog.getByLabel('Price', { exact: true }).fill('2810.5');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(desk.orderRow(id)).toContainText('2,810.50');
    await expect(desk.orderRow(id)).toContainText('0/4');

    await desk
      .orderRow(id)
      .getByRole('button', { name: `Cancel ${id}` })
      .click();
    await expect(desk.orderRow(id)).toContainText('CANCELLED');
    await expect(desk.orderRow(id).getByRole('button', { name: `Cancel ${id}` })).toHaveCount(0);
    await expect(page.getByLabel('Notifications')).toContainText(/Cancelled: BUY 4 TCS/);

    // Filter to cancelled orders only, then open the row's history.
    await page.getByRole('radio', { name: 'Cancelled' }).click();
    await expect(desk.blotter.locator('tbody tr[data-order-id]')).toHaveCount(1);
    await desk.orderRow(id).getByRole('cell', { name: 'TCS' }).click();
    const history = page.getByRole('dialog', { name: new RegExp(`Order ${id}`) });
    await expect(history.getByRole('table', { name: 'Order history' })).toContainText('OPEN');
    await expect(history.getByRole('table', { name: 'Order history' })).toContainText('CANCELLED');
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();
  });

  test('invalid combinations cannot be submitted and the ticket names the field', async ({ desk }) => {
    await desk.open();
    const t = desk.ticket;
    const place = t.getByRole('button', { name: 'Place order' });

    // CNC (delivery) on an NFO future.
    await desk.chooseSymbol('NIFTY FUT', /NFO/);
    await desk.fillTicket({ orderType: 'MARKET', product: 'CNC' });
    await expect(place).toBeDisabled();
    const product = t.getByLabel('Product');
    await expect(product).toHaveAttribute('aria-invalid', 'true');
    await expect(product).toHaveAccessibleDescription(/CNC \(delivery\) is only for NSE\/BSE equity/);

    // IOC with SL (a sell stop far below the market, so only the validity is wrong).
    await desk.fillTicket({
      side: 'Sell',
      product: 'NRML',
      orderType: 'SL',
      validity: 'IOC',
      price: '99',
      triggerPrice: '100',
    });
    await expect(place).toBeDisabled();
    await expect(t.getByLabel('Validity')).toHaveAccessibleDescription(/IOC is only for MARKET and LIMIT orders/);
    await expect(t.getByLabel('Product')).not.toHaveAttribute('aria-invalid', 'true');

    // Enter does not submit either.
    await t.getByLabel('Quantity').press('Enter');
    await expect(t.getByTestId('ticket-ack')).toHaveCount(0);

    await desk.fillTicket({ validity: 'DAY' });
    await expect(place).toBeEnabled();
  });
});
