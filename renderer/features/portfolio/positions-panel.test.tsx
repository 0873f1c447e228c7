import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Position } from '@shared/domain/portfolio';
import { IRFC_BOUGHT_TODAY, positionOf } from '@shared/testing/portfolio-fixtures';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, NIFTY_CE, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { useBridgeEvents } from '../session/use-bridge-events';
import { FundsPanel } from './funds-panel';
import { PositionsPanel } from './positions-panel';

/**
 * The Positions panel against an in-memory bridge: the broker's positions are polled, ticks are
 * pushed as main pushes them, and the figures a trader reads are the panel's text.
 */

let bridge: FakeBridge;

/** NIFTY futures bought yesterday at 26,000 (closed at 26,100) and, today, 1,000 IRFC at 100 and 2,000 at 100.05. */
const POSITIONS: Position[] = [
  positionOf({
    exchange: 'NFO',
    tradingsymbol: NIFTY_FUT.tradingsymbol,
    instrumentToken: NIFTY_FUT.instrumentToken,
    product: 'NRML',
    quantity: 75,
    overnightQuantity: 75,
    averagePrice: 26000,
    closePrice: 26100,
    lastPrice: 26150,
    buyQuantity: 75,
    buyValue: 19_50_000,
    unrealisedPnl: 11_250,
    pnl: 11_250,
    m2m: 3750,
  }),
  { ...IRFC_BOUGHT_TODAY, instrumentToken: 77, closePrice: 99.5 },
];

beforeEach(() => {
  bridge = createFakeBridge({
    'positions.list': () => ({ ok: true, data: POSITIONS }),
    'holdings.list': () => ({ ok: true, data: [] }),
    'instruments.list': () => ({ ok: true, data: [NIFTY_FUT] }),
    // The broker's own unrealised figure, as of its last read: behind the ticks.
    'funds.get': () => ({
      ok: true,
      data: {
        availableCash: 5_00_000,
        usedMargin: 0,
        availableMargin: 5_00_000,
        openingBalance: 5_00_000,
        realisedPnl: 0,
        unrealisedPnl: 612.35,
      },
    }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

function WithEvents() {
  useBridgeEvents();
  return <PositionsPanel />;
}

const text = (testId: string): string | null => screen.getByTestId(testId).textContent;

function tick(instrumentToken: number, lastPrice: number, second: number): void {
  act(() =>
    bridge.emit('market.ticks', {
      ticks: [
        { instrumentToken, lastPrice, volume: 1, ts: `2026-11-24T10:00:${String(second).padStart(2, '0')}+05:30` },
      ],
    }),
  );
}

describe('Positions panel', () => {
  it("shows a carried position's day P&L from the previous close and its total from cost", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <WithEvents />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(text(`pos-pnl-${NIFTY_FUT.tradingsymbol}`)).toBe('+₹11,250.00'));
    expect(text(`pos-day-${NIFTY_FUT.tradingsymbol}`)).toBe('+₹3,750.00');
    // Day: 3,750 + 2,900; overall: 11,250 + 2,900 (no holdings).
    expect(text('day-pnl')).toBe('+₹6,650.00');
    expect(text('overall-pnl')).toBe('+₹14,150.00');
  });

  it('keeps the exact ₹2,900.00 on IRFC as ticks at the same price come and go, and moves it with the price', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <WithEvents />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(text('pos-pnl-IRFC')).toBe('+₹2,900.00'));
    tick(77, 101, 1);
    // The tick has landed once the LTP cell says it is live; the P&L has not flipped to 2,900.10.
    await waitFor(() => expect(screen.getByTestId('pos-ltp-IRFC').getAttribute('data-quote')).toBe('live'));
    expect(text('pos-pnl-IRFC')).toBe('+₹2,900.00');
    tick(77, 101.05, 2);
    await waitFor(() => expect(text('pos-pnl-IRFC')).toBe('+₹3,050.00'));
    expect(text('pos-day-IRFC')).toBe('+₹3,050.00');
  });

  it("Funds' unrealised P&L is Positions' Unrealised total, moving with the same ticks", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <WithEvents />
        <FundsPanel />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(text('total-unrealised')).toBe('+₹14,150.00'));
    await waitFor(() => expect(text('funds-unrealised')).toBe('+₹14,150.00'));
    tick(77, 101.05, 3);
    await waitFor(() => expect(text('total-unrealised')).toBe('+₹14,300.00'));
    expect(text('funds-unrealised')).toBe('+₹14,300.00');
  });

  it("By underlying prices an option's group from its underlying's future, which the trader does not hold", async () => {
    const call = positionOf({
      exchange: 'NFO',
      tradingsymbol: NIFTY_CE.tradingsymbol,
      instrumentToken: NIFTY_CE.instrumentToken,
      product: 'NRML',
      quantity: 75,
      averagePrice: 180,
      lastPrice: 182.4,
      buyQuantity: 75,
      buyValue: 13_500,
    });
    bridge = createFakeBridge({
      'positions.list': () => ({ ok: true, data: [call] }),
      'holdings.list': () => ({ ok: true, data: [] }),
      'instruments.list': () => ({ ok: true, data: [NIFTY_FUT, NIFTY_CE] }),
    });
    setBridgeForTests(bridge);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <WithEvents />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(text(`pos-pnl-${NIFTY_CE.tradingsymbol}`)).not.toBeNull());
    fireEvent.click(screen.getByRole('checkbox', { name: 'By underlying' }));
    tick(NIFTY_CE.instrumentToken, 182.4, 4);
    await waitFor(() => expect(screen.getByTestId('position-group').textContent).toContain('NIFTY'));
    // Until the future ticks, the group's price and Greeks are unknown.
    expect(text('group-delta')).toBe('…');
    tick(NIFTY_FUT.instrumentToken, 24_512.3, 5);
    await waitFor(() => expect(text('group-delta')).not.toBe('…'));
    expect(screen.getByTestId('position-group').textContent).toMatch(/24,5\d\d\.\d\d/);
  });
});
