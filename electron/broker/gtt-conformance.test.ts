import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GttRequest } from '@shared/domain/gtt';
import type { CoreFixture } from '../core/testing/core-fixture';
import { conformanceFixture, coreOn, DIALECTS, failure } from '../core/testing/dialects';

/**
 * GTTs through every adapter (docs/gtt.md): the same tests against the REST adapter on the
 * paper broker's `/v1/gtt` and the Kite adapter on its `/kite/gtt/triggers`, one GTT book behind
 * both, driven through main's GTT service as the desk drives it. The Upstox adapter has no GTT
 * on the paper dialect, and a test of its own says so.
 */

const oco = (stop: number, target: number): GttRequest => ({
  type: 'oco',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  triggerValues: [stop, target],
  legs: [
    { transactionType: 'SELL', quantity: 1, product: 'MIS', price: stop },
    { transactionType: 'SELL', quantity: 1, product: 'MIS', price: target },
  ],
});

/** The paper Upstox dialect has no GTT (docs/upstox.md §The adapter): its adapter is held to that below. */
const WITH_GTT = DIALECTS.filter(([, dialect]) => dialect !== 'upstox');

describe('GTT conformance: Upstox adapter on /upstox, which has no GTT', () => {
  let fx: CoreFixture;
  beforeEach(async () => {
    ({ fx } = await conformanceFixture());
  });
  afterEach(async () => fx.close());

  it('a GTT is refused as not_found saying Upstox offers none, nothing is created, and the list is empty', async () => {
    const core = await coreOn(fx, 'upstox');
    const before = fx.paper.gttCount();
    const info = await failure(core.gtt.place(oco(1480, 1520)));
    expect(info).toMatchObject({ kind: 'not_found', message: expect.stringMatching(/no GTT/) });
    expect(fx.paper.gttCount()).toBe(before);
    expect(await core.gtt.list()).toEqual([]);
  });
});

describe.each(WITH_GTT)('GTT conformance: %s', (_name, dialect) => {
  let fx: CoreFixture;
  let infy: number;
  beforeEach(async () => {
    ({ fx, infy } = await conformanceFixture());
  });
  afterEach(async () => fx.close());

  it('creates an OCO, lists it active, and once the target is reached lists it triggered with the order it placed', async () => {
    const core = await coreOn(fx, dialect);
    const outcome = await core.gtt.place(oco(1480, 1520));
    expect(outcome.state).toBe('placed');
    const gttId = outcome.state === 'placed' ? outcome.gttId : '';
    const listed = (await core.gtt.list()).find((g) => g.gttId === gttId);
    expect(listed).toMatchObject({
      type: 'oco',
      status: 'active',
      triggerValues: [1480, 1520],
      lastPriceAtCreation: 1500,
    });
    fx.paper.setPrice(infy, 1520);
    const after = (await core.gtt.list()).find((g) => g.gttId === gttId);
    expect(after?.status).toBe('triggered');
    expect(after?.legs[0]?.orderId).toBeNull();
    const orderId = after?.legs[1]?.orderId ?? '';
    expect(orderId).not.toBe('');
    expect(await core.broker.getOrder(orderId)).toMatchObject({ transactionType: 'SELL', price: 1520, quantity: 1 });
  });

  it('a GTT that fires while no desk is running is listed triggered by the next desk, its order on the book', async () => {
    const first = await coreOn(fx, dialect);
    const outcome = await first.gtt.place(oco(1480, 1520));
    const gttId = outcome.state === 'placed' ? outcome.gttId : '';
    await first.close();
    fx.paper.setPrice(infy, 1479);
    const next = await coreOn(fx, dialect);
    const g = (await next.gtt.list()).find((x) => x.gttId === gttId);
    expect(g?.status).toBe('triggered');
    const orderId = g?.legs[0]?.orderId ?? '';
    expect((await next.broker.listOrders()).map((o) => o.orderId)).toContain(orderId);
  });

  it('modifies an active GTT to new triggers and deletes it; a deleted GTT lists as cancelled and never fires', async () => {
    const core = await coreOn(fx, dialect);
    const outcome = await core.gtt.place(oco(1480, 1520));
    const gttId = outcome.state === 'placed' ? outcome.gttId : '';
    await core.gtt.modify(gttId, { triggerValues: [1470, 1530], legs: oco(1470, 1530).legs });
    expect((await core.gtt.list()).find((g) => g.gttId === gttId)?.triggerValues).toEqual([1470, 1530]);
    await core.gtt.delete(gttId);
    expect((await core.gtt.list()).find((g) => g.gttId === gttId)?.status).toBe('cancelled');
    const orders = fx.paper.orderCount();
    fx.paper.setPrice(infy, 1540);
    expect(fx.paper.orderCount()).toBe(orders);
  });

  it('the broker refuses an OCO on the wrong sides of its price naming triggerValues.0, and nothing is created', async () => {
    const core = await coreOn(fx, dialect);
    const before = fx.paper.gttCount();
    // Past main's rules (they use main's price): the broker's price moved after main read it.
    const info = await failure(
      core.broker.placeGtt({ ...oco(1510, 1520), clientGttId: 'gtt-conf-1', lastPrice: 1500 }),
    );
    expect(info).toMatchObject({ kind: 'bad_request', field: 'triggerValues.0' });
    expect(fx.paper.gttCount()).toBe(before);
  });

  it('main refuses a leg with a quantity off the lot before sending, naming legs.0.quantity', async () => {
    const core = await coreOn(fx, dialect);
    const before = fx.paper.gttCount();
    const bad = oco(1480, 1520);
    const info = await failure(core.gtt.place({ ...bad, legs: [{ ...bad.legs[0]!, quantity: 0.5 }, bad.legs[1]!] }));
    expect(info).toMatchObject({ kind: 'bad_request', field: 'legs.0.quantity' });
    expect(fx.paper.gttCount()).toBe(before);
  });

  it('a create answered 5xx after the broker acted, and a change whose reply was lost, are each settled by reading back: one GTT, the change applied, and the same request id again sends nothing', async () => {
    const core = await coreOn(fx, dialect);
    const before = fx.paper.gttCount();
    const place = core.broker.placeGtt.bind(core.broker);
    core.broker.placeGtt = async (cmd) => {
      fx.paper.setFaults('late_server_error=1');
      try {
        return await place(cmd);
      } finally {
        fx.paper.setFaults({});
      }
    };
    const first = await core.gtt.place(oco(1470, 1530), 'req-gtt-5xx-1');
    expect(first.state).toBe('placed');
    expect(fx.paper.gttCount()).toBe(before + 1);
    expect(await core.gtt.place(oco(1470, 1530), 'req-gtt-5xx-1')).toEqual(first);
    expect(fx.paper.gttCount()).toBe(before + 1);

    const gttId = first.state === 'placed' ? first.gttId : '';
    const modify = core.broker.modifyGtt.bind(core.broker);
    let sent = 0;
    core.broker.modifyGtt = async (gtt, changes, lastPrice) => {
      sent += 1;
      fx.paper.setFaults('drop_reply=1');
      try {
        return await modify(gtt, changes, lastPrice);
      } finally {
        fx.paper.setFaults({});
      }
    };
    const changes = oco(1460, 1540);
    const ack = await core.gtt.modify(gttId, changes, 'check', 'req-gtt-mod-1');
    expect(ack.gttId).toBe(gttId);
    expect((await core.gtt.list()).find((g) => g.gttId === gttId)?.triggerValues).toEqual([1460, 1540]);
    await core.gtt.modify(gttId, changes, 'check', 'req-gtt-mod-1');
    expect(sent).toBe(1);
  });
});
