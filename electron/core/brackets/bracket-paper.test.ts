import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bracket } from '@shared/domain/bracket';
import type { Order } from '@shared/domain/order';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { DIALECTS, failure, NO_KITE_LIMITS } from '../testing/dialects';
import type { TradingCore } from '../trading-core';
import { infyBracket } from '../testing/bracket-requests';
import { bracketCore, bracketNow, exitsWorking } from '../testing/bracket-scenario';
import { trailTrigger } from '@shared/trading/bracket-rules';

/**
 * Brackets and trailing stops kept by main, against the real paper broker (docs/brackets.md):
 * the entry fills, main places the stop-loss and the target as a pair, one fills and main
 * cancels the other; a trailing stop follows the ticks of `setPrice`, only ever up for a long,
 * each move one modification at the broker.
 */

/** The broker's orders carrying one of the bracket's references. */
async function bracketOrders(core: TradingCore, b: Bracket): Promise<Order[]> {
  const refs = new Set([b.entry?.ref, b.stop?.ref, b.target?.ref]);
  const all = await core.broker.listOrders();
  return all.filter(
    (o) =>
      o.orderId === b.entry?.orderId ||
      o.orderId === b.stop?.orderId ||
      o.orderId === b.target?.orderId ||
      refs.has(o.clientOrderId ?? ''),
  );
}

describe.each(DIALECTS)('brackets on the paper broker: %s', (_name, dialect) => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('the entry fills, the stop-loss and target are placed as a pair; the target fills and the stop-loss is cancelled', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const { core, infy } = await bracketCore(fx, dialect);
    fx.paper.setPrice(infy, 1500);
    const placed = await core.brackets.create(infyBracket(10, { stop: 1480, target: 1530 }));
    expect(placed.entry).toMatchObject({ state: 'placed' });
    const id = placed.bracket.id;
    await vi.waitFor(() => expect(bracketNow(core, id).phase).toBe('protecting'), { timeout: 10_000 });
    await exitsWorking(core, id);
    // Kite places an SL-M as a stop-limit under market protection (docs/kite.md §Market protection).
    const stopType = dialect === 'kite' ? 'SL' : 'SL-M';
    const marketType = dialect === 'kite' ? 'LIMIT' : 'MARKET';
    const legs = (await bracketOrders(core, bracketNow(core, id))).filter(
      (o) => o.orderId !== bracketNow(core, id).entry?.orderId,
    );
    expect(legs.map((o) => [o.transactionType, o.orderType, o.quantity, o.triggerPrice || o.price]).sort()).toEqual([
      ['SELL', 'LIMIT', 10, 1530],
      ['SELL', stopType, 10, 1480],
    ]);

    fx.paper.setPrice(infy, 1535);
    await vi.waitFor(() => expect(bracketNow(core, id).phase).toBe('done'), { timeout: 10_000 });
    expect(bracketNow(core, id).outcome).toMatch(/^Target filled at ₹/);
    const after = await bracketOrders(core, bracketNow(core, id));
    expect(after.map((o) => [o.orderType, o.status]).sort()).toEqual(
      [
        ['LIMIT', 'COMPLETE'],
        [marketType, 'COMPLETE'],
        [stopType, 'CANCELLED'],
      ].sort(),
    );
  });

  it('an exit on the wrong side of the market is refused naming its field, and nothing is created', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const { core, infy } = await bracketCore(fx, dialect);
    fx.paper.setPrice(infy, 1500);
    const before = (await core.broker.listOrders()).length;
    const err = await failure(
      core.brackets.create(infyBracket(1, { entry: { orderType: 'LIMIT', price: 1490 }, stop: 1495, target: null })),
    );
    expect(err).toMatchObject({ kind: 'bad_request', field: 'stop.triggerPrice' });
    expect(err.message).toMatch(/below ₹1,490/);
    expect(await core.broker.listOrders()).toHaveLength(before);
    expect(core.brackets.list()).toEqual([]);
  });

  it('a trailing stop follows the ticks up by ₹5 behind the best price, never down, one modification per move', async () => {
    fx = await startCoreFixture({ kiteRates: NO_KITE_LIMITS });
    const { core, infy } = await bracketCore(fx, dialect);
    fx.paper.setPrice(infy, 1500);
    let modifications = 0;
    const modify = core.broker.modifyOrder.bind(core.broker);
    core.broker.modifyOrder = (...args) => {
      modifications += 1;
      return modify(...args);
    };
    const placed = await core.brackets.create(
      infyBracket(5, { stop: 1490, target: null, trail: { by: 'points', amount: 5 } }),
    );
    const id = placed.bracket.id;
    await vi.waitFor(() => expect(bracketNow(core, id).stop?.status).toBe('working'), { timeout: 10_000 });
    // The entry filled at about 1,500: 5 behind it is 1,495, above the stop given.
    const triggerAt = async (): Promise<number> =>
      (await core.broker.getOrder(bracketNow(core, id).stop?.orderId ?? '')).triggerPrice ?? 0;
    const seen: number[] = [];
    const settle = async (want: number): Promise<void> => {
      await vi.waitFor(async () => expect(await triggerAt()).toBe(want), { timeout: 10_000 });
      await core.brackets.idle();
      seen.push(await triggerAt());
    };
    const fill = bracketNow(core, id).entry?.averagePrice ?? 0;
    await settle(trailTrigger('BUY', fill, { by: 'points', amount: 5 }, 0.05));
    for (const [price, want] of [
      [1510, 1505],
      [1507, 1505],
      [1506.5, 1505],
      [1521.35, 1516.35],
      [1530, 1525],
    ] as const) {
      fx.paper.setPrice(infy, price);
      await settle(want);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(bracketNow(core, id).trailMoves).toBe(modifications);
    expect(modifications).toBe(new Set(seen).size);
    expect(bracketNow(core, id).phase).toBe('protecting');
  });
});
