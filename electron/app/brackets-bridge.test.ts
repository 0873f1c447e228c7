import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bracket, BracketPlaced } from '@shared/domain/bracket';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { startPaperBroker, type PaperBroker } from '../paper';

/**
 * Brackets and trailing stops over the bridge (docs/brackets.md): a trailing stop moves from the
 * stream with no window subscribed to its instrument — main watches it as its own — and every
 * change reaches the page as `brackets.changed`; volume at price is answered from main's memory.
 */
describe('brackets over the bridge', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let token = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-brackets-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    services = await createAppServices({ dataDir: dir, brokerUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' });
    dispatch = createDispatcher(services.handlers);
    const list = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!list.ok) throw new Error(list.error.message);
    token = (list.data as Array<{ instrumentToken: number; tradingsymbol: string }>).find(
      (i) => i.tradingsymbol === 'INFY',
    )!.instrumentToken;
    paper.setPrice(token, 1500);
  });
  afterAll(async () => {
    await services.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a trailing stop moves with ticks no window asked for, each change pushed as brackets.changed; cancel ends it', async () => {
    const pushed: Bracket[][] = [];
    const off = services.events.on('brackets.changed', (e) => pushed.push(e.brackets));
    const request = {
      kind: 'entry' as const,
      entry: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity: 2,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
      stop: { triggerPrice: 1450 },
      target: null,
      trail: { by: 'percent' as const, amount: 1 },
    };
    const placed = await dispatch('brackets.place', { request, requestId: 'rq-bracket-bridge-1' });
    expect(placed).toMatchObject({ ok: true, data: { entry: { state: 'placed' } } });
    if (!placed.ok) return;
    const id = (placed.data as BracketPlaced).bracket.id;
    const latest = (): Bracket | undefined => pushed.at(-1)?.find((b) => b.id === id);
    await vi.waitFor(() => expect(latest()?.stop?.status).toBe('working'), { timeout: 10_000 });
    paper.setPrice(token, 1600);
    // 1% behind 1,600 is 1,584: the stop follows from main's own subscription.
    await vi.waitFor(() => expect(latest()?.stop?.order.triggerPrice).toBe(1584), { timeout: 10_000 });
    expect(latest()?.trailMoves).toBeGreaterThan(0);

    // The same click again (a lost reply): the same bracket, no second one.
    const again = await dispatch('brackets.place', { request, requestId: 'rq-bracket-bridge-1' });
    expect(again).toMatchObject({ ok: true, data: { bracket: { id } } });
    const listed = await dispatch('brackets.list', undefined);
    expect(listed.ok && (listed.data as Bracket[]).map((b) => b.id)).toEqual([id]);

    const volume = await dispatch('market.volumeAtPrice', { instrumentToken: token });
    expect(volume).toMatchObject({ ok: true, data: { since: expect.any(Number) } });

    const cancelled = await dispatch('brackets.cancel', { id });
    expect(cancelled.ok).toBe(true);
    await vi.waitFor(() => expect(latest()?.phase).toBe('done'), { timeout: 10_000 });
    expect(latest()?.outcome).toBe('Cancelled by you');
    off();
  });
});
