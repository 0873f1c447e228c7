import { estimateCharges } from '@shared/trading/charges';
import { chooseSymbol, fillTicket, openDashboard, paperRead, paperToken, placeOrder } from './dashboard-helpers';
import { expect, quietHostPerFile, test } from './fixtures';

/**
 * The journal end to end (docs/journal.md): a day of paper trades placed from the ticket appears
 * in the P&L calendar on its day with the right net — the trade book's realised P&L less the
 * charges model's estimate, worked out here from the broker's own fills — in the month's total,
 * in the trades list, and in the exported CSV.
 */

const quietHost = quietHostPerFile();

interface WireTrade {
  readonly order_id: string;
  readonly exchange: 'NSE';
  readonly tradingsymbol: string;
  readonly transaction_type: 'BUY' | 'SELL';
  readonly product: 'MIS';
  readonly quantity: number;
  readonly price: number;
  readonly fill_timestamp?: string;
  readonly filled_at?: string;
}

const RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const signed = (v: number): string => `${v > 0 ? '+' : v < 0 ? '−' : ''}${RUPEES.format(Math.abs(v))}`;

test('a day of paper trades appears in the calendar on its day with the right net', async ({ page }) => {
  const host = quietHost();
  await openDashboard(page, host);
  for (const [symbol, quantity] of [
    ['INFY', '10'],
    ['SBIN', '20'],
  ] as const) {
    await chooseSymbol(page, symbol, new RegExp(`^${symbol} NSE`));
    for (const side of ['Buy', 'Sell'] as const) {
      await fillTicket(page, { side, orderType: 'MARKET', product: 'MIS', quantity });
      await placeOrder(page);
    }
  }

  // What the day should come to, from the broker's own fills: realised P&L less the charges.
  const token = await paperToken(host);
  const { trades } = await paperRead<{ trades: WireTrade[] }>(host, token, '/trades');
  expect(trades).toHaveLength(4);
  const value = (side: 'BUY' | 'SELL') =>
    trades.filter((t) => t.transaction_type === side).reduce((v, t) => v + t.price * t.quantity, 0);
  const charges = estimateCharges(
    trades.map((t) => ({ ...t, transactionType: t.transaction_type, multiplier: 1, orderId: t.order_id })),
  ).total;
  const net = value('SELL') - value('BUY') - charges;

  await page.getByTestId('journal-button').click();
  const journal = page.getByRole('dialog', { name: 'Journal' });
  await expect(journal.getByRole('button', { name: 'Previous month' })).toBeFocused();
  await journal.getByRole('button', { name: 'Sync now' }).click();
  await expect(journal.getByTestId('journal-trade')).toHaveCount(2);

  const day = journal.getByRole('button', { name: /: net .* from 2 trades$/ });
  await expect(day).toHaveCount(1);
  await expect(day).toHaveAccessibleName(new RegExp(`: net ${signed(net).replace(/[+.]/g, '\\$&')} from 2 trades$`));
  await expect(journal.getByTestId('jcal-month-net')).toHaveText(signed(net));
  const nets = await journal.getByTestId('journal-trade-net').allTextContents();
  const sum = nets
    .map((t) => (t.startsWith('−') ? -1 : 1) * Number(t.replace(/[^\d.]/g, '')))
    .reduce((a, b) => a + b, 0);
  expect(sum).toBeCloseTo(net, 1);

  // The day's trades alone, and as a CSV file.
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(journal.getByRole('heading', { name: /^Trades closed / })).toBeVisible();
  const download = page.waitForEvent('download');
  await journal.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^tradedesk-journal-\d{4}-\d\d-\d\d\.csv$/);
});
