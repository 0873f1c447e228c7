import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OptionChain, OptionLeg } from '@shared/domain/market';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { useTicketDraft, useTicketOpen } from '../ticket/ticket-store';
import { createFakeBridge, NIFTY_CE, type FakeBridge } from '../../test/fake-bridge';
import { useBridgeEvents } from '../session/use-bridge-events';
import { BasketPanel } from '../basket/basket-panel';
import { OptionChainPanel } from './option-chain-panel';
import { greeks, yearsTo } from '@shared/trading/options-pricing';
import { expiryInstant } from '@shared/trading/market-hours';
import { useStrategyActions, useStrategyLegs } from '../strategy/strategy-store';

/**
 * The option chain against an in-memory bridge: the strikes around the money with calls and
 * puts side by side, prices moved by pushed ticks, and a click that opens the ticket on the
 * contract.
 */

let bridge: FakeBridge;

const NIFTY_PE = {
  ...NIFTY_CE,
  instrumentToken: 13240067,
  tradingsymbol: 'NIFTY26NOV24500PE',
  instrumentType: 'PE' as const,
};

const leg = (tradingsymbol: string, instrumentToken: number, over: Partial<OptionLeg> = {}): OptionLeg => ({
  instrumentToken,
  tradingsymbol,
  lastPrice: 182.4,
  change: 12.3,
  oi: 4_281_225,
  oiChange: 61_500,
  iv: 13.92,
  delta: 0.53,
  bid: 182.35,
  ask: 182.45,
  volume: 1_000,
  ...over,
});

const CHAIN: OptionChain = {
  underlying: 'NIFTY',
  exchange: 'NFO',
  expiry: '2026-11-26',
  expiries: ['2026-11-26', '2026-12-03'],
  underlyingPrice: 24_512.35,
  atmStrike: 24_500,
  lotSize: 75,
  rows: [
    { strike: 24_450, call: leg('NIFTY26NOV24450CE', 900_001, { lastPrice: 210.5 }), put: null },
    {
      strike: 24_500,
      call: leg(NIFTY_CE.tradingsymbol, NIFTY_CE.instrumentToken),
      put: leg(NIFTY_PE.tradingsymbol, NIFTY_PE.instrumentToken, { lastPrice: 170.1, change: -9.8, delta: -0.4736 }),
    },
    { strike: 24_550, call: null, put: leg('NIFTY26NOV24550PE', 900_002, { lastPrice: 201.05 }) },
  ],
  ts: '2026-11-23T10:41:27+05:30',
};

beforeEach(() => {
  bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [NIFTY_CE, NIFTY_PE] }),
    'options.chain': () => ({ ok: true, data: CHAIN }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

function WithEvents() {
  useBridgeEvents();
  return <OptionChainPanel />;
}

async function renderChain() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <WithEvents />
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Option chain' });
  return within(table);
}

const row = (strike: number): HTMLElement => {
  const tr = document.querySelector<HTMLElement>(`tr[data-strike="${strike}"]`);
  if (!tr) throw new Error(`no row for ${strike}`);
  return tr;
};

/** The 24,500 call ticks: last 190.05, up 19.95 on the day. */
const callTicks = (): void =>
  act(() =>
    bridge.emit('market.ticks', {
      ticks: [
        {
          instrumentToken: NIFTY_CE.instrumentToken,
          lastPrice: 190.05,
          change: 19.95,
          volume: 1_200,
          ts: '2026-11-23T10:41:30+05:30',
        },
      ],
    }),
  );

/** A row's cells as read, without the B / S add-to-basket buttons. */
const cells = (tr: HTMLElement): string[] =>
  [...tr.children].map((c) => {
    const copy = c.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('.chain__add').forEach((a) => a.remove());
    return copy.textContent ?? '';
  });

describe('OptionChainPanel', () => {
  it('shows calls and puts side by side around the strike, the at-the-money row marked and the spot between strikes', async () => {
    await renderChain();
    expect(cells(row(24_500))).toEqual([
      '42.81L',
      '+61,500',
      '13.92',
      '0.53',
      '182.40+12.30',
      '24,500',
      '170.10−9.80',
      '−0.47',
      '13.92',
      '+61,500',
      '42.81L',
    ]);
    expect(row(24_500).getAttribute('aria-current')).toBe('true');
    // A strike without a put: five blank cells on that side, never zeros.
    expect(cells(row(24_450)).slice(6)).toEqual(['', '', '', '', '']);
    // The spot line sits between 24,500 and 24,550.
    const spot = screen.getByTestId('chain-spot');
    expect(spot.textContent).toBe('NIFTY 24,512.35');
    expect(spot.nextElementSibling).toBe(row(24_550));
    expect(bridge.callsOf('options.chain')[0]?.payload).toEqual({ underlying: 'NIFTY' });
  });

  it('moves a contract’s last price and change with its ticks, and streams the contracts in the chain', async () => {
    await renderChain();
    await waitFor(() => {
      const sub = bridge.callsOf('market.subscribe').at(-1)?.payload as { owner: string; tokens: number[] };
      expect(sub.owner).toBe('options');
      expect(sub.tokens).toEqual(
        [900_001, 900_002, NIFTY_CE.instrumentToken, NIFTY_PE.instrumentToken].sort((a, b) => a - b),
      );
    });
    callTicks();
    await waitFor(() => expect(cells(row(24_500))[4]).toBe('190.05+19.95'));
  });

  it('opens the ticket on the contract clicked, keeping the ticket’s side', async () => {
    await renderChain();
    await userEvent.setup().click(await screen.findByRole('button', { name: `Trade ${NIFTY_PE.tradingsymbol}` }));
    const { result } = renderHook(() => ({ draft: useTicketDraft(), open: useTicketOpen() }));
    expect(result.current.open).toBe(true);
    expect(result.current.draft.instrumentToken).toBe(NIFTY_PE.instrumentToken);
    expect(result.current.draft.quantity).toBe('75');
    // A contract the instrument list does not have yet cannot be traded from here.
    expect(screen.getByRole('button', { name: 'Trade NIFTY26NOV24550PE' })).toHaveProperty('disabled', true);
  });

  it('builds a straddle in two clicks: B on the call and S on the put add one-lot LIMIT legs at their live prices to the basket, with its margin asked', async () => {
    bridge.answer('margins.basket', () => ({
      ok: true,
      data: { initial: 2_55_000.5, final: 2_55_000.5, legs: [{ total: 13_680 }, { total: 3_189.5 }] },
    }));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <WithEvents />
        <BasketPanel />
      </QueryClientProvider>,
    );
    await screen.findByRole('table', { name: 'Option chain' });
    callTicks();
    await waitFor(() => expect(cells(row(24_500))[4]).toBe('190.05+19.95'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `Add BUY ${NIFTY_CE.tradingsymbol} to basket` }));
    await user.click(screen.getByRole('button', { name: `Add SELL ${NIFTY_PE.tradingsymbol} to basket` }));
    const legs = within(screen.getByRole('table', { name: 'Basket legs' }))
      .getAllByRole('row')
      .slice(1);
    expect(legs.map((r) => [...r.children].slice(1, 8).map((c) => c.textContent))).toEqual([
      [`${NIFTY_CE.tradingsymbol} NFO`, 'BUY', '75', 'LIMIT', '190.05', '–', 'NRML'],
      [`${NIFTY_PE.tradingsymbol} NFO`, 'SELL', '75', 'LIMIT', '170.10', '–', 'NRML'],
    ]);
    await waitFor(() =>
      expect(bridge.callsOf('margins.basket').at(-1)?.payload).toMatchObject({
        orders: [
          { transactionType: 'BUY', price: 190.05 },
          { transactionType: 'SELL', price: 170.1 },
        ],
      }),
    );
    // A contract the instrument list does not have cannot be added either.
    expect(screen.queryByRole('button', { name: 'Add BUY NIFTY26NOV24550PE to basket' })).toBeNull();
  });
});

describe('the chain at a glance and for a strategy', () => {
  it('shows the put–call ratio and max pain of the strikes shown, and each strike’s Greeks from its IV on asking', async () => {
    await renderChain();
    // Every leg has the same OI here: three puts and three calls… one of each missing, so 2 : 2.
    expect(screen.getByTestId('chain-pcr').textContent).toBe('1.00');
    expect(screen.getByTestId('chain-max-pain').textContent).toBe('24,500');
    expect(screen.queryByTestId('chain-gamma')).toBeNull();
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Greeks' }));
    const g = greeks(
      'CE',
      24_512.35,
      24_500,
      yearsTo(expiryInstant('NFO', '2026-11-26'), Date.parse(CHAIN.ts)),
      0.1392,
    );
    // Calls: OI, OI chg, IV, Δ, Γ, Θ, vega, LTP.
    expect(cells(row(24_500)).slice(4, 7)).toEqual([
      g.gamma.toFixed(4),
      `−${Math.abs(g.theta).toFixed(2)}`,
      g.vega.toFixed(2),
    ]);
    expect(cells(row(24_500))).toHaveLength(17);
  });

  it('in strategy mode B / S add legs to the strategy builder, not the basket', async () => {
    const { result } = renderHook(() => ({ legs: useStrategyLegs(), actions: useStrategyActions() }));
    act(() => result.current.actions.cleared());
    await renderChain();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'B/S add to' }), 'strategy');
    await user.click(screen.getByRole('button', { name: `Add SELL ${NIFTY_CE.tradingsymbol} to strategy` }));
    await user.click(screen.getByRole('button', { name: `Add BUY ${NIFTY_PE.tradingsymbol} to strategy` }));
    expect(result.current.legs.map((l) => [l.side, l.kind, l.strike, l.lots, l.price])).toEqual([
      ['SELL', 'CE', 24_500, 1, 182.4],
      ['BUY', 'PE', 24_500, 1, 170.1],
    ]);
    expect(screen.getByRole('button', { name: 'Strategy (2)…' })).toBeTruthy();
  });
});
