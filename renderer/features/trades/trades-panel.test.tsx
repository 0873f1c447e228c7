import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { TradesPanel } from './trades-panel';

/**
 * The Trades panel against an in-memory bridge: the fills a trader reads, the day's summary
 * over them, and the CSV export (what lands in the file, and that a failed read writes none).
 */

let bridge: FakeBridge;

/** 100 INFY bought at 1,500 (order B1), then sold at 1,510 in two parts (order S1). */
const TRADES: Trade[] = [
  trade('t1', 'B1', 'BUY', 100, 1500, '2026-11-23T09:20:00+05:30'),
  trade('t2', 'S1', 'SELL', 40, 1510, '2026-11-23T10:05:00+05:30'),
  trade('t3', 'S1', 'SELL', 60, 1510, '2026-11-23T10:05:01+05:30'),
];

function trade(
  tradeId: string,
  orderId: string,
  side: 'BUY' | 'SELL',
  quantity: number,
  price: number,
  filledAt: string,
): Trade {
  return {
    tradeId,
    orderId,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: INFY.instrumentToken,
    transactionType: side,
    product: 'MIS',
    quantity,
    price,
    filledAt,
  };
}

const FLAT_INFY: Position = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  instrumentToken: INFY.instrumentToken,
  product: 'MIS',
  quantity: 0,
  overnightQuantity: 0,
  multiplier: 1,
  averagePrice: 0,
  closePrice: 1495,
  lastPrice: 1512,
  buyQuantity: 100,
  buyValue: 1_50_000,
  sellQuantity: 100,
  sellValue: 1_51_000,
  dayBuyQuantity: 100,
  dayBuyValue: 1_50_000,
  daySellQuantity: 100,
  daySellValue: 1_51_000,
  realisedPnl: 1000,
  unrealisedPnl: 0,
  pnl: 1000,
  m2m: 1000,
};

beforeEach(() => {
  bridge = createFakeBridge({
    'trades.list': () => ({ ok: true, data: TRADES }),
    'positions.list': () => ({ ok: true, data: [FLAT_INFY] }),
    'instruments.list': () => ({ ok: true, data: [INFY] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  vi.restoreAllMocks();
});

function show(): void {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <TradesPanel />
    </QueryClientProvider>,
  );
}

const text = (testId: string): string | null => screen.getByTestId(testId).textContent;

/** Captures what a download would write: the Blob's text, once the page asks for its URL. */
function captureDownloads(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob);
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return blobs;
}

describe('Trades panel', () => {
  it('lists every fill newest first with its time, side, quantity, price and order id', async () => {
    show();
    const table = await screen.findByRole('table', { name: 'Trades' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const [, first, second, third] = within(table).getAllByRole('row');
    expect(first?.textContent).toBe('10:05:01INFY NSESELL601,510.00₹90,600.00S1');
    expect(second?.textContent).toContain('40');
    expect(third?.textContent).toBe('09:20:00INFY NSEBUY1001,500.00₹1,50,000.00B1');
  });

  it("sums the day: turnover of both sides, the broker's realised P&L, the charges estimate and the net", async () => {
    show();
    await waitFor(() => expect(text('day-turnover')).toBe('₹3,01,000.00'));
    expect(text('day-realised')).toBe('+₹1,000.00');
    // Two executed orders (the sell's two parts pay brokerage once): docs/desk.md §Charges model.
    expect(text('day-charges')).toBe('₹100.35');
    expect(text('day-net')).toBe('+₹899.65');
  });

  it('shows realised and net as unknown, not zero, when the positions cannot be read', async () => {
    bridge.answer('positions.list', () => ({ ok: false, error: { kind: 'network', message: 'broker unreachable' } }));
    show();
    await waitFor(() => expect(text('day-turnover')).toBe('₹3,01,000.00'));
    expect(text('day-realised')).toBe('–');
    expect(text('day-net')).toBe('–');
  });

  it("leaves an earlier session's fill out of the book and the day's figures, by the market's clock", async () => {
    bridge.answer('trades.list', () => ({
      ok: true,
      data: [...TRADES, trade('t0', 'C0', 'BUY', 5, 1490, '2026-11-20T15:10:00+05:30')],
    }));
    bridge.answer('market.status', () => ({
      ok: true,
      data: { now: '2026-11-23T10:30:00+05:30', simulated: true, speed: 1, exchanges: [] },
    }));
    show();
    const table = await screen.findByRole('table', { name: 'Trades' });
    await waitFor(() => expect(within(table).queryByText('C0')).toBeNull());
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(text('day-turnover')).toBe('₹3,01,000.00');
  });

  it('exports the fills as CSV read afresh at the click, oldest first', async () => {
    const blobs = captureDownloads();
    show();
    await screen.findByTestId('day-turnover');
    const before = bridge.callsOf('trades.list').length;
    await userEvent.click(screen.getByRole('button', { name: 'Export trades as CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(bridge.callsOf('trades.list').length).toBe(before + 1);
    const lines = (await blobs[0]!.text()).trim().split('\r\n');
    expect(lines[0]).toBe('filled_at,trade_id,order_id,exchange,tradingsymbol,side,product,quantity,price');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['t1', 't2', 't3']);
  });

  it('writes no file and says so when the fresh read fails', async () => {
    const blobs = captureDownloads();
    show();
    await screen.findByTestId('day-turnover');
    bridge.answer('trades.list', () => ({ ok: false, error: { kind: 'network', message: 'broker unreachable' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Export trades as CSV' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Export failed: .*nothing was written/);
    expect(blobs).toHaveLength(0);
  });
});
