import { afterEach, describe, expect, it, vi } from 'vitest';
import { INFY_RESTING_BUY } from '@shared/testing/order-fixtures';
import type { CoreFixture } from '../testing/core-fixture';
import { startCoreFixture } from '../testing/core-fixture';
import { coreOn, DIALECTS, failure, NO_KITE_LIMITS, type Dialect } from '../testing/dialects';
import type { TradingCore } from '../trading-core';

/**
 * Modify and cancel get the three honest answers of a placement (docs/contract.md §Modify and
 * cancel answer honestly): a reply lost, held or answered with a 5xx after the broker acted is
 * "not yet confirmed — checking", never a refusal, and main settles it by reading the order back.
 * Real paper broker, both dialects.
 */

const FAULTS = ['drop_reply', 'stall_reply', 'late_server_error'] as const;

/** Small numbers, same algorithm: a held reply ends at the client's own timeout. */
const QUICK = {
  rate: null,
  timeouts: { connectMs: 1_000, headersMs: 400, bodyMs: 400 },
  rto: { minMs: 100, maxMs: 400, initialMs: 400 },
  readBudgetMs: 400,
  readBackoff: { baseMs: 5, capMs: 20, maxRetries: 1 },
  modifyTimings: { deadlineMs: 600 },
  actionTimings: { pacingMs: [20, 50, 100] },
} as const;

const RESTING = INFY_RESTING_BUY;

async function rig(
  dialect: Dialect,
  paper: Parameters<typeof startCoreFixture>[0] = {},
): Promise<{ fx: CoreFixture; core: TradingCore }> {
  const fx = await startCoreFixture({
    kiteRates: NO_KITE_LIMITS,
    rate: { perSecond: 10_000, burst: 10_000 },
    ...paper,
  });
  const core = await coreOn(fx, dialect, QUICK);
  const infy = (await core.broker.listInstruments('NSE')).find((i) => i.tradingsymbol === 'INFY');
  fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
  return { fx, core };
}

async function resting(core: TradingCore): Promise<string> {
  const placed = await core.orders.place(RESTING);
  if (placed.state !== 'placed') throw new Error('not placed');
  return placed.orderId;
}

/**
 * `out` is "not yet confirmed — checking" for `action` on order `id`, and main settles it as done
 * with `status` once it has read the order back.
 */
async function expectCheckedThenDone(
  core: TradingCore,
  out: unknown,
  action: 'modify' | 'cancel',
  id: string,
  status: 'OPEN' | 'CANCELLED',
): Promise<void> {
  const done = action === 'modify' ? 'modified' : 'cancelled';
  expect(out).toEqual({
    state: 'unconfirmed',
    action,
    orderId: id,
    detail: `Checking with the broker whether order ${id} was ${done}…`,
  });
  await vi.waitFor(() => expect(core.actions.state(id)).toMatchObject({ state: 'done', status }), { timeout: 10_000 });
}

describe.each(DIALECTS)('%s', (_, dialect) => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it.each(FAULTS)(
    'a modify under %s is "not yet confirmed — checking", then Modified, read back; applied once',
    async (fault) => {
      const r = await rig(dialect);
      fx = r.fx;
      const id = await resting(r.core);
      // From the PATCH on, every reply is lost (its own and the reads that would confirm it):
      // main cannot know whether it applied.
      const patch = r.core.broker.modifyOrder.bind(r.core.broker);
      r.core.broker.modifyOrder = (...args) => {
        fx.paper.setFaults(`${fault}=1`);
        return patch(...args);
      };
      const out = await r.core.actions.modify(id, { price: 1445 });
      fx.paper.setFaults({});
      await expectCheckedThenDone(r.core, out, 'modify', id, 'OPEN');
      const now = await r.core.broker.getOrder(id);
      expect(now).toMatchObject({ price: 1445, status: 'OPEN' });
      // Applied once: /v1 counts every modification in the order's version.
      if (dialect === 'rest') expect(now.version).toBe(2);
    },
  );

  it.each(FAULTS)('a cancel under %s is "not yet confirmed — checking", then Cancelled, read back', async (fault) => {
    const r = await rig(dialect);
    fx = r.fx;
    const id = await resting(r.core);
    fx.paper.setFaults(`${fault}=1`);
    const out = await r.core.actions.cancel(id);
    fx.paper.setFaults({});
    await expectCheckedThenDone(r.core, out, 'cancel', id, 'CANCELLED');
  });

  it('a cancel whose first DELETE acted with its reply lost is never "Not cancelled" because the retry hears 429', async () => {
    const r = await rig(dialect);
    fx = r.fx;
    const id = await resting(r.core);
    const orders = { rest: '/v1/orders', kite: '/kite/orders', upstox: '/upstox/v3/order/cancel' }[dialect];
    const first = fx.paper.hold({ method: 'DELETE', pathPrefix: orders });
    const out = r.core.actions.cancel(id);
    await vi.waitFor(() => expect(fx.paper.holds()[0]?.waiting).toBe(1));
    // The first DELETE cancels the order, its reply is lost; the transport's retry is refused 429.
    fx.paper.setFaults('drop_reply=1');
    const retry = fx.paper.hold({ method: 'DELETE', pathPrefix: orders });
    fx.paper.release(first);
    await vi.waitFor(() => expect(fx.paper.holds().find((h) => h.id === retry)?.waiting).toBe(1));
    fx.paper.setFaults('rate_limit=1,retry_after_s=0');
    fx.paper.release(retry);
    const answer = await out.catch((err: unknown) => err);
    fx.paper.setFaults({});
    expect(answer).toMatchObject({ state: 'unconfirmed', action: 'cancel', orderId: id });
    await vi.waitFor(() => expect(r.core.actions.state(id)).toMatchObject({ state: 'done', status: 'CANCELLED' }), {
      timeout: 10_000,
    });
  });

  it('a refusal is still a refusal: a modify breaking a rule, a cancel of an order that filled', async () => {
    const r = await rig(dialect);
    fx = r.fx;
    const id = await resting(r.core);
    expect(await failure(r.core.actions.modify(id, { price: 1445.01 }))).toMatchObject({ field: 'price' });
    expect(r.core.actions.state(id)).toBeNull();
    const filled = await r.core.orders.place({ ...RESTING, orderType: 'MARKET', price: null });
    if (filled.state !== 'placed') throw new Error('not placed');
    await vi.waitFor(async () => expect((await r.core.broker.getOrder(filled.orderId)).status).toBe('COMPLETE'));
    expect(await r.core.actions.cancel(filled.orderId)).toMatchObject({ state: 'done', status: 'COMPLETE' });
  });
});

describe('Kite, its order book trailing its order system', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a cancel whose first reply was lost, clicked again, is not "cannot be cancelled": it is settled as Cancelled', async () => {
    const r = await rig('kite', { orderbookLagMs: 1_500 });
    fx = r.fx;
    const id = await resting(r.core);
    // The first cancel acts, its replies are lost.
    fx.paper.setFaults('drop_reply=1');
    await r.core.broker.cancelOrder(id).catch(() => undefined);
    fx.paper.setFaults({});
    // The trader's second click: Kite answers "cannot be cancelled as it is being processed"
    // (the order is cancelled), and its order book still shows it OPEN.
    const out = await r.core.actions.cancel(id);
    expect(out.state === 'done' ? out.status : out.detail).toMatch(/^(CANCELLED|Checking with the broker whether)/);
    await vi.waitFor(
      () => expect(r.core.actions.state(id) ?? out).toMatchObject({ state: 'done', status: 'CANCELLED' }),
      {
        timeout: 10_000,
      },
    );
  });

  it('a modify whose first reply was lost is never "Not modified" because a later send is refused: it filled at the new price', async () => {
    const r = await rig('kite', { orderbookLagMs: 1_500 });
    fx = r.fx;
    const id = await resting(r.core);
    // Only the first PATCH's reply is lost; it acts, and its new price fills the order at once.
    // The lagging book still shows it OPEN at the old price, so main sends the PATCH again, and
    // Kite refuses that one: the order is no longer working.
    const patch = r.core.broker.modifyOrder.bind(r.core.broker);
    let sends = 0;
    r.core.broker.modifyOrder = async (...args) => {
      sends += 1;
      if (sends > 1) return patch(...args);
      fx.paper.setFaults('drop_reply=1');
      try {
        return await patch(...args);
      } finally {
        fx.paper.setFaults({});
      }
    };
    const out = await r.core.actions.modify(id, { price: 1505 });
    expect(sends).toBeGreaterThan(1);
    expect(out).toMatchObject({ state: 'unconfirmed', action: 'modify', orderId: id });
    await vi.waitFor(() => expect(r.core.actions.state(id)).toMatchObject({ state: 'done', status: 'COMPLETE' }), {
      timeout: 10_000,
    });
  });

  it('a modify sent right after the placement, before the order book shows the order, is Modified', async () => {
    const r = await rig('kite', { orderbookLagMs: 800 });
    fx = r.fx;
    const id = await resting(r.core);
    await expect(r.core.actions.modify(id, { price: 1445 })).resolves.toMatchObject({ state: 'done', orderId: id });
    await vi.waitFor(async () => expect((await r.core.broker.getOrder(id)).price).toBe(1445), { timeout: 10_000 });
  });
});
