import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { roundToTick } from '@shared/trading/money';
import { restingAtBroker, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';
import { changedFields } from './order-modifier';
import { failure } from '../testing/dialects';

/** A second client of the same account, changing the order behind main's back (another terminal). */
async function otherTerminal(fx: CoreFixture): Promise<TradingCore> {
  const core = await fx.newCore({ rate: null });
  await core.start();
  return core;
}

describe('modifications through main', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('a modification breaking a rule is refused naming the field, and nothing reaches the broker', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore({ rate: null });
    await core.start();
    const { order, eq } = await restingAtBroker(core, 'rest');
    // Count what main sends to change an order: the broker refusing the change itself would leave
    // the order as it was too, so only this count tells main's refusal from the broker's.
    const modify = core.broker.modifyOrder.bind(core.broker);
    let sent = 0;
    core.broker.modifyOrder = (...args) => {
      sent += 1;
      return modify(...args);
    };
    const offTick = (order.price ?? 0) + eq.tickSize / 5;
    expect(await failure(core.modifier.modify(order.orderId, { price: offTick }))).toMatchObject({
      kind: 'bad_request',
      field: 'price',
      message: expect.stringMatching(/is off the ₹[0-9.]+ tick — use/),
    });
    expect(await failure(core.modifier.modify(order.orderId, { quantity: 2, price: order.price }))).toMatchObject({
      kind: 'bad_request',
      field: 'changes',
    });
    expect(sent, 'a modification was sent to the broker').toBe(0);
    expect((await core.broker.getOrder(order.orderId)).version).toBe(1);
  });

  it('only the fields that differ from the order are sent, whatever the dialog passes as absolute values', () => {
    const order = {
      quantity: 2,
      price: 100.05,
      triggerPrice: null,
      orderType: 'LIMIT',
      validity: 'DAY',
    } as unknown as Order;
    expect(
      changedFields(order, { quantity: 2, price: 100.1, triggerPrice: null, orderType: 'LIMIT', validity: 'DAY' }),
    ).toEqual({ price: 100.1 });
    // 100.05 typed as 100.050000001 is the same price in paise: not a change.
    expect(changedFields(order, { price: 100.050000001 })).toEqual({});
  });

  it('a modification never overwrites a change made after main read the order: 412, reported as changed meanwhile', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore({ rate: null });
    await core.start();
    const other = await otherTerminal(fx);
    const { order, eq } = await restingAtBroker(core, 'rest');
    const mine = roundToTick((order.price ?? 0) - eq.tickSize, eq.tickSize);
    const theirs = roundToTick((order.price ?? 0) - 2 * eq.tickSize, eq.tickSize);
    // The other terminal's change lands just after main has read the order.
    const read = core.broker.getOrder.bind(core.broker);
    let interleaved = false;
    core.broker.getOrder = async (id, opts) => {
      const o = await read(id, opts);
      if (!interleaved) {
        interleaved = true;
        await other.modifier.modify(id, { price: theirs });
      }
      return o;
    };
    expect(await failure(core.modifier.modify(order.orderId, { price: mine }))).toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/changed meanwhile/),
    });
    const now = await other.broker.getOrder(order.orderId);
    expect([now.price, now.version]).toEqual([theirs, 2]);
  });

  it('a PATCH answered with a late 5xx (it did apply) is confirmed by reading the order, not sent again, and cannot undo a newer change', async () => {
    fx = await startCoreFixture();
    const core = await fx.newCore({ rate: null, readBackoff: { baseMs: 5, capMs: 20, maxRetries: 2 } });
    await core.start();
    const other = await otherTerminal(fx);
    const { order, eq } = await restingAtBroker(core, 'rest');
    const mine = roundToTick((order.price ?? 0) - eq.tickSize, eq.tickSize);
    const theirs = roundToTick((order.price ?? 0) - 2 * eq.tickSize, eq.tickSize);

    // 1. The PATCH applies, the reply is a 5xx: main confirms it by reading, sends nothing more.
    const patch = core.broker.modifyOrder.bind(core.broker);
    let patches = 0;
    core.broker.modifyOrder = async (...args) => {
      patches += 1;
      fx.paper.setFaults(patches === 1 ? 'late_server_error=1' : {});
      try {
        return await patch(...args);
      } finally {
        fx.paper.setFaults({});
      }
    };
    expect(await core.modifier.modify(order.orderId, { price: mine })).toMatchObject({ orderId: order.orderId });
    expect(patches).toBe(1);
    expect((await core.broker.getOrder(order.orderId)).price).toBe(mine);

    // 2. Again a late 5xx, and before main can look, another terminal changes the price: main
    //    must not re-send its PATCH (that would undo the newer change), nor say its own did
    //    nothing (it acted, before theirs): the outcome is unknown, naming the change.
    const back = roundToTick((order.price ?? 0) - 3 * eq.tickSize, eq.tickSize);
    patches = 0;
    core.broker.modifyOrder = async (...args) => {
      patches += 1;
      fx.paper.setFaults('late_server_error=1');
      try {
        return await patch(...args);
      } finally {
        fx.paper.setFaults({});
        await other.modifier.modify(order.orderId, { price: theirs });
      }
    };
    expect(await failure(core.modifier.modify(order.orderId, { price: back }))).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/did not confirm the modification \(Order \d+ was changed meanwhile/),
    });
    expect(patches).toBe(1);
    expect((await other.broker.getOrder(order.orderId)).price).toBe(theirs);
  });
});
