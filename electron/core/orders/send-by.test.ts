import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { marketBuy, startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/**
 * No send leaves main after its intent's window (docs/money-path.md §One policy for every
 * broker): a POST still queued behind a 429 pause when the window ends is never sent, and the
 * trader is told "not placed — never sent", which is certain. Before, it waited out the pause
 * and reached the broker long after the click.
 */

describe('an order queued behind a 429 pause', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('is not sent once its window has passed: refused as never sent, and no order lands after the pause', async () => {
    fx = await startCoreFixture();
    // The client limiter on, as the app runs it; a 1 s window so the pause (3 s) outlasts it.
    const core = await fx.newCore({ placementTimings: { resendWindowMs: 1_000, answerDeadlineMs: 2_000 } });
    await core.start();
    const order = marketBuy(await core.broker.listInstruments());
    await core.catalog.find(order.exchange, order.tradingsymbol);

    // One placement meets a 429 with Retry-After 3 s: the order actions' lane pauses 3 s.
    fx.paper.setFaults('rate_limit=1,retry_after_s=3');
    await expect(core.orders.place(order)).rejects.toBeInstanceOf(AppError);
    fx.paper.setFaults({});

    // The next click's POST waits behind that pause, past its window.
    const err = await core.orders.place(order).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).info.message).toBe(
      'Not placed: Not sent: its time ran out while the broker had asked us to wait, so it never left',
    );

    // Once the pause is over a new click is placed, and it is the only order the broker holds.
    await vi.waitFor(
      async () => expect(await core.orders.place(order).catch(() => null)).toMatchObject({ state: 'placed' }),
      { timeout: 10_000, interval: 250 },
    );
    expect(fx.paper.orderCount()).toBe(1);
  });
});
