import type { Locator, Page } from '@playwright/test';
import {
  instrumentToken,
  nextSession,
  openDashboard,
  paperPlace,
  paperRead,
  paperToken,
  setPrice,
} from './dashboard-helpers';
import { expect, startHost, test, type HostHandle } from './fixtures';

/**
 * The workspace on the small and the large screen a trader is likely to have: every panel's
 * content either fits or scrolls, and what a trader reads at a glance — watchlist symbols with
 * bid and offer, the funds figures, the Place order button, the whole depth ladder, every column
 * of the blotter, holdings, positions and the option chain with the row actions — is on screen
 * without scrolling sideways and without being cut. Panels that share a slot (Depth / Holdings,
 * Chart / Option chain, Orders / Trades, Positions / Basket) are each checked as shown.
 */

/**
 * A small trading day: holdings bought the day before, then positions, working orders
 * (Modify/Cancel) and a rejection.
 */
async function seedTradingDay(host: HostHandle): Promise<void> {
  const token = await paperToken(host);
  await paperPlace(host, token, {
    tradingsymbol: 'HDFCBANK',
    transaction_type: 'BUY',
    quantity: 120,
    order_type: 'MARKET',
    product: 'CNC',
  });
  await paperPlace(host, token, {
    tradingsymbol: 'TITAN',
    transaction_type: 'BUY',
    quantity: 15,
    order_type: 'MARKET',
    product: 'CNC',
  });
  await nextSession(host);
  await setPrice(host, await instrumentToken(host, 'NSE', 'TCS'), 3_000);
  await paperPlace(host, token, {
    tradingsymbol: 'INFY',
    transaction_type: 'BUY',
    quantity: 40,
    order_type: 'MARKET',
    product: 'MIS',
  });
  await paperPlace(host, token, {
    tradingsymbol: 'SBIN',
    transaction_type: 'SELL',
    quantity: 150,
    order_type: 'MARKET',
    product: 'MIS',
  });
  await paperPlace(host, token, {
    tradingsymbol: 'TCS',
    transaction_type: 'BUY',
    quantity: 10,
    order_type: 'LIMIT',
    price: 2_850,
    product: 'MIS',
  });
  // The widest cells the blotter shows: a futures symbol, TRIGGER PENDING.
  const { instruments } = await paperRead<{
    instruments: Array<{ tradingsymbol: string; instrument_type: string; name: string; lot_size: number }>;
  }>(host, token, '/instruments?exchange=NFO');
  const fut = instruments.find((i) => i.instrument_type === 'FUT' && i.name === 'NIFTY')!;
  await paperPlace(host, token, {
    exchange: 'NFO',
    tradingsymbol: fut.tradingsymbol,
    transaction_type: 'BUY',
    quantity: fut.lot_size,
    order_type: 'MARKET',
    product: 'NRML',
  });
  await paperPlace(host, token, {
    tradingsymbol: 'TCS',
    transaction_type: 'BUY',
    quantity: 5,
    order_type: 'SL',
    price: 3_200,
    trigger_price: 3_150,
    product: 'MIS',
  });
  // No holding to sell: REJECTED, with the longest message the blotter shows.
  await paperPlace(host, token, {
    tradingsymbol: 'ITC',
    transaction_type: 'SELL',
    quantity: 200,
    order_type: 'MARKET',
    product: 'CNC',
  });
}

/**
 * What the page cuts off, in words: text clipped inside its box, and content overflowing a box
 * that cannot scroll. Excluded, and why: visually hidden labels for screen readers (`.sr-only`),
 * the chart's canvas (drawn to fit its box), and the blotter's free-text message, which
 * ellipsises on purpose with its whole text in its title (so Status and the actions stay in view).
 */
function cutContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const clipping = (o: string) => o === 'hidden' || o === 'clip';
    for (const panel of document.querySelectorAll<HTMLElement>('section.panel')) {
      const name = panel.querySelector('h2')?.textContent ?? panel.getAttribute('aria-label') ?? '?';
      for (const el of panel.querySelectorAll<HTMLElement>('*')) {
        if (el.closest('.sr-only') || el.querySelector('canvas') || el.closest('canvas')) continue;
        const cs = getComputedStyle(el);
        const wider = el.scrollWidth > el.clientWidth + 1;
        const taller = el.scrollHeight > el.clientHeight + 1;
        const free = el.classList.contains('msg') && el.title === el.textContent;
        if (
          ((wider && (clipping(cs.overflowX) || cs.textOverflow === 'ellipsis')) ||
            (taller && clipping(cs.overflowY))) &&
          !free
        ) {
          out.push(
            `${name}: <${el.tagName.toLowerCase()} class="${el.className}"> "${(el.textContent ?? '').slice(0, 40)}" is cut`,
          );
        }
      }
    }
    return out;
  });
}

/** True when `el` is entirely inside the visible part of `container` (no scrolling needed to see it). */
async function seenWithin(el: Locator, container: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([
    el.boundingBox(),
    container.evaluate((c) => {
      const r = c.getBoundingClientRect();
      return { x: r.x + c.clientLeft, y: r.y + c.clientTop, width: c.clientWidth, height: c.clientHeight };
    }),
  ]);
  if (!a) return false;
  return (
    a.x >= b.x - 0.5 &&
    a.y >= b.y - 0.5 &&
    a.x + a.width <= b.x + b.width + 0.5 &&
    a.y + a.height <= b.y + b.height + 0.5
  );
}

function panel(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  test(`at ${width}×${height} every panel fits or scrolls, and symbols, figures, columns and order actions are in full view`, async ({
    page,
  }) => {
    const own = await startHost();
    try {
      await page.setViewportSize({ width, height });
      await openDashboard(page, own.handle);
      await seedTradingDay(own.handle);

      // Wait for the seeded day to reach every panel.
      const orders = page.getByRole('table', { name: 'Orders' });
      await expect(orders.getByText('REJECTED')).toBeVisible();
      await expect(orders.getByText('TRIGGER PENDING')).toBeVisible();
      await expect(orders.getByRole('button', { name: /^Cancel / })).toHaveCount(2);
      await expect(
        page.getByRole('table', { name: 'Positions' }).getByRole('row').filter({ hasText: 'SBIN' }),
      ).toBeVisible();
      await page
        .getByRole('table', { name: 'Instruments' })
        .getByRole('cell', { name: 'BHARTIARTL', exact: true })
        .click();
      await page.keyboard.press('F1'); // the ticket as a trader uses it: instrument and LTP shown
      await expect(
        page.getByRole('form', { name: 'Order ticket' }).getByRole('combobox', { name: 'Symbol' }),
      ).toHaveValue('BHARTIARTL');

      expect(await cutContent(page)).toEqual([]);

      // The whole ladder of the selected instrument, its totals included, without scrolling.
      const depth = panel(page, 'Depth');
      await expect(
        depth.getByRole('table', { name: 'Market depth' }).locator('.depth__price--offer button'),
      ).toHaveCount(5);
      expect(await seenWithin(depth.getByTestId('depth-total-sell'), depth.locator('.panel__body'))).toBe(true);

      // Every watchlist symbol is whole: no "RELI…".
      const symbols = page.getByRole('table', { name: 'Instruments' }).locator('td.sym');
      expect(await symbols.count()).toBeGreaterThan(5);
      for (const cell of await symbols.all()) {
        expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth), (await cell.textContent()) ?? '').toBe(
          true,
        );
      }

      // The six funds figures fit the Funds panel as it opens: no row below the fold.
      const funds = panel(page, 'Funds');
      const figures = funds.getByRole('definition');
      await expect(figures).toHaveCount(6);
      for (const f of await figures.all()) expect(await seenWithin(f, funds.locator('.panel__body'))).toBe(true);

      // The ticket's Place order button, the working orders' Cancel, and every holdings and
      // positions column are in view without scrolling.
      const ticket = page.getByRole('region', { name: 'Ticket' });
      expect(
        await seenWithin(ticket.getByRole('button', { name: 'Place order' }), ticket.locator('.panel__body')),
      ).toBe(true);
      for (const cancel of await orders.getByRole('button', { name: /^Cancel / }).all()) {
        expect(await seenWithin(cancel, page.getByTestId('orders-scroll'))).toBe(true);
      }
      const noSidewaysScroll = async (name: string): Promise<void> => {
        const scroll = page
          .getByRole('table', { name })
          .locator('xpath=ancestor::div[contains(@class, "table-scroll")][1]');
        expect(
          await scroll.evaluate((s) => s.scrollWidth - s.clientWidth),
          `${name} scrolls sideways`,
        ).toBeLessThanOrEqual(1);
      };
      for (const name of ['Instruments', 'Orders', 'Positions']) await noSidewaysScroll(name);

      // The panels behind the other tabs, each as shown.
      await page.getByRole('tab', { name: 'Holdings' }).click();
      await expect(
        page.getByRole('table', { name: 'Holdings' }).getByRole('row').filter({ hasText: 'TITAN' }),
      ).toBeVisible();
      expect(await cutContent(page)).toEqual([]);
      await noSidewaysScroll('Holdings');

      await page.getByRole('tab', { name: 'Option chain' }).click();
      await expect(page.getByRole('table', { name: 'Option chain' }).locator('tr.is-atm')).toHaveCount(1);
      expect(await cutContent(page)).toEqual([]);
      await noSidewaysScroll('Option chain');
      // Each premium is readable in its own cell beside its B / S: never under them, never spilling
      // into the strike.
      const covered = await page.getByRole('table', { name: 'Option chain' }).evaluate((table) => {
        const hits: string[] = [];
        for (const cell of table.querySelectorAll('td.chain__ltp')) {
          const price = cell.querySelector('button[data-testid^="chain-ltp-"]');
          const add = cell.querySelector('.chain__add');
          if (!price || !add) continue;
          const range = document.createRange();
          range.selectNodeContents(price);
          const text = range.getBoundingClientRect();
          const buttons = add.getBoundingClientRect();
          const own = cell.getBoundingClientRect();
          const overButtons = text.left < buttons.right && buttons.left < text.right;
          const outOfCell = text.right > own.right + 0.5 || text.left < own.left - 0.5;
          if (overButtons || outOfCell) hits.push(price.textContent ?? '?');
        }
        return hits;
      });
      expect(covered, 'premiums under their B / S or out of their cell').toEqual([]);

      await page.getByRole('tab', { name: 'Trades' }).click();
      await expect(
        page.getByRole('table', { name: 'Trades' }).getByRole('row').filter({ hasText: 'SBIN' }),
      ).toBeVisible();
      expect(await cutContent(page)).toEqual([]);
      await noSidewaysScroll('Trades');

      await page.getByRole('tab', { name: 'Basket' }).click();
      await expect(page.getByRole('button', { name: /^Place all/ })).toBeVisible();
      expect(await cutContent(page)).toEqual([]);
      await noSidewaysScroll('Basket legs');
    } finally {
      await own.stop();
    }
  });
}
