import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bracket, BracketPlaced } from '@shared/domain/bracket';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { startPaperBroker, type PaperBroker } from '../paper';

/**
 * Protection over the bridge (docs/brackets.md §The controller): the same `requestId` sent twice
 * at once to `brackets.place` (two windows, a repeated frame) makes one bracket — one stop-loss and
 * one target at the broker — and both calls get its answer; a protect over what is held is
 * refused naming `quantity`.
 */
describe('protection over the bridge', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let token = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-protection-'));
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

  it('the same requestId twice at once makes one bracket with one stop-loss and one target; both get its answer', async () => {
    const request = {
      kind: 'entry' as const,
      entry: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity: 10,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
      stop: { triggerPrice: 1450 },
      target: { price: 1550 },
      trail: null,
    };
    const [a, b] = await Promise.all([
      dispatch('brackets.place', { request, requestId: 'rq-twice-at-once-1' }),
      dispatch('brackets.place', { request, requestId: 'rq-twice-at-once-1' }),
    ]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    const id = (a.data as BracketPlaced).bracket.id;
    expect((b.data as BracketPlaced).bracket.id).toBe(id);
    const get = async (): Promise<Bracket | undefined> => {
      const listed = await dispatch('brackets.list', undefined);
      return listed.ok ? (listed.data as Bracket[]).find((x) => x.id === id) : undefined;
    };
    await vi.waitFor(
      async () => expect([(await get())?.stop?.status, (await get())?.target?.status]).toEqual(['working', 'working']),
      { timeout: 10_000 },
    );
    const listed = await dispatch('brackets.list', undefined);
    expect(listed.ok && (listed.data as Bracket[]).map((x) => x.id)).toEqual([id]);
    const orders = await dispatch('orders.list', undefined);
    const sells = orders.ok
      ? (orders.data as Array<{ transactionType: string; status: string }>).filter(
          (o) => o.transactionType === 'SELL' && o.status !== 'CANCELLED',
        )
      : [];
    expect(sells).toHaveLength(2);

    // Protecting more than is held (10 long) is refused, naming the field.
    const over = await dispatch('brackets.place', {
      request: {
        kind: 'protect',
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        product: 'MIS',
        side: 'BUY',
        quantity: 1000,
        stop: { triggerPrice: 1450 },
        target: { price: 1550 },
        trail: null,
      },
      requestId: 'rq-protect-over-1',
    });
    expect(over).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'quantity' } });
  });
});
