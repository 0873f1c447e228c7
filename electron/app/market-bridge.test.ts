import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requests } from '@shared/ipc/contract';
import type { Instrument } from '@shared/domain/instrument';
import type { Tick } from '@shared/domain/market';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';

/**
 * The market channels of the bridge (`quotes.get`, `market.status`, `options.chain`, depth mode
 * on `market.subscribe`) end to end over the embedded paper broker: what the dashboard's depth
 * ladder, watchlist and option chain read (docs/api.md §GET /quotes, §GET /market/status,
 * §GET /option-chain, §Stream).
 */
describe('market data over the bridge, on the embedded paper broker', () => {
  let dir: string;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let instruments: Instrument[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-market-'));
    services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0, control: true } });
    dispatch = createDispatcher(services.handlers);
    const list = await dispatch('instruments.list', undefined);
    if (!list.ok) throw new Error(list.error.message);
    instruments = list.data as Instrument[];
  });
  afterAll(async () => {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  });

  const token = (exchange: string, symbol: string): number => {
    const i = instruments.find((x) => x.exchange === exchange && x.tradingsymbol === symbol);
    if (!i) throw new Error(`no ${exchange}:${symbol}`);
    return i.instrumentToken;
  };

  it('quotes.get answers a contract-valid quote per known token, in the order asked, leaving out unknown ones', async () => {
    const infy = token('NSE', 'INFY');
    const tcs = token('NSE', 'TCS');
    const res = await dispatch('quotes.get', { tokens: [tcs, 1, infy] });
    if (!res.ok) throw new Error(res.error.message);
    const quotes = requests['quotes.get'].output.parse(res.data);
    expect(quotes.map((q) => q.tradingsymbol)).toEqual(['TCS', 'INFY']);
    const q = quotes[1]!;
    expect(q.bid).not.toBeNull();
    expect(q.ask).not.toBeNull();
    expect(q.bid!).toBeLessThan(q.ask!);
    expect(q.depth.buy[0]?.price).toBe(q.bid);
    expect(q.depth.sell[0]?.price).toBe(q.ask);
    expect(q.lowerCircuit).toBeLessThan(q.lastPrice);
    expect(q.upperCircuit).toBeGreaterThan(q.lastPrice);
    expect(q.oi).toBeNull();
  });

  it('quotes.get refuses an empty list, naming tokens', async () => {
    const res = await dispatch('quotes.get', { tokens: [] });
    expect(res).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'tokens' } });
  });

  it('market.status lists every exchange with its phase and next open and close', async () => {
    const res = await dispatch('market.status', undefined);
    if (!res.ok) throw new Error(res.error.message);
    const status = requests['market.status'].output.parse(res.data);
    expect(status.exchanges.map((e) => e.exchange).sort()).toEqual(['BFO', 'BSE', 'CDS', 'MCX', 'NFO', 'NSE']);
  });

  it('options.chain lists NIFTY strikes with calls and puts that name tradable tokens', async () => {
    const res = await dispatch('options.chain', { underlying: 'NIFTY' });
    if (!res.ok) throw new Error(res.error.message);
    const chain = requests['options.chain'].output.parse(res.data);
    expect(chain.expiry).toBe(chain.expiries[0]);
    expect(chain.rows.length).toBeGreaterThan(5);
    const row = chain.rows.find((r) => r.strike === chain.atmStrike)!;
    expect(instruments.some((i) => i.instrumentToken === row.call?.instrumentToken && i.instrumentType === 'CE')).toBe(
      true,
    );
    expect(instruments.some((i) => i.instrumentToken === row.put?.instrumentToken && i.instrumentType === 'PE')).toBe(
      true,
    );
  });

  it('options.chain refuses an unknown underlying as not found', async () => {
    const res = await dispatch('options.chain', { underlying: 'NOSUCH' });
    expect(res).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('a depth-mode subscription delivers ticks carrying bid, ask and the 5-level depth', async () => {
    const infy = token('NSE', 'INFY');
    const ticks: Tick[] = [];
    const off = services.events.on('market.ticks', (e) =>
      ticks.push(...e.ticks.filter((t) => t.instrumentToken === infy)),
    );
    const res = await dispatch('market.subscribe', { owner: 'depth', tokens: [infy], mode: 'full' });
    expect(res).toMatchObject({ ok: true, data: { subscribed: 1 } });
    await fetch(`${services.paperUrl}/_control/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Paper-Control': services.paperControlSecret ?? '' },
      body: JSON.stringify({ instrument_token: infy, last_price: 1500 }),
    });
    await vi.waitFor(() => expect(ticks.some((t) => t.lastPrice === 1500 && t.depth !== undefined)).toBe(true), {
      timeout: 5_000,
    });
    off();
    const t = ticks.find((x) => x.lastPrice === 1500 && x.depth)!;
    expect(t.depth!.sell[0]!.price).toBeGreaterThan(1500);
    expect(t.depth!.buy[0]!.price).toBeLessThan(1500);
    expect(t.bid).toBe(t.depth!.buy[0]!.price);
  });

  it('windows watching the same instruments cost one subscription each; a closed window’s panels stop watching', async () => {
    const [a, b, c, d] = [token('NSE', 'RELIANCE'), token('NSE', 'TCS'), token('NSE', 'SBIN'), token('NSE', 'ITC')];
    // Each call made as a page drawing one window: main keeps each window's owners apart.
    const subscribed = async (owner: string, tokens: number[], page = 'main-page'): Promise<number> => {
      const res = await dispatch('market.subscribe', { owner, tokens }, page);
      if (!res.ok) throw new Error(res.error.message);
      return (res.data as { subscribed: number }).subscribed;
    };
    const base = await subscribed('watchlist', []);
    expect(await subscribed('watchlist', [a, b, c])).toBe(base + 3);
    // A pop-out with a second watchlist on the same list and a chart of its own.
    const moved = await dispatch('desk.open', {
      panel: { kind: 'watchlist', link: 'red', instrument: null, options: {} },
      to: 'new',
    });
    if (!moved.ok) throw new Error(moved.error.message);
    const { window } = moved.data as { window: string };
    services.workstation.pageOpened('popout-page', window);
    expect(await subscribed('watchlist-2', [a, b, c], 'popout-page')).toBe(base + 3);
    expect(await subscribed('chart-2', [d], 'popout-page')).toBe(base + 4);
    // The trader closes the pop-out: what only it watched is dropped, what the main window shows stays.
    expect(await dispatch('desk.close', { window })).toMatchObject({ ok: true });
    expect(await subscribed('watchlist', [a, b, c])).toBe(base + 3);
    expect(await subscribed('watchlist', [])).toBe(base);
  });
});
