import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { startCoreFixture, type CoreFixture } from '../../core/testing/core-fixture';
import type { TradingCore } from '../../core/trading-core';

describe('REST adapter: order ids in paths', () => {
  let fx: CoreFixture;
  let core: TradingCore;
  beforeAll(async () => {
    fx = await startCoreFixture();
    core = await fx.newCore();
    await core.start();
  });
  afterAll(() => fx.close());

  it('refuses an order id that could change the route (`..`, `a/b`) without sending anything', async () => {
    for (const id of ['..', '.', 'a/b', 'x?y', '']) {
      const before = core.stats.sent;
      const err = await core.broker.cancelOrder(id).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).info).toMatchObject({ kind: 'bad_request', field: 'orderId' });
      expect(core.stats.sent).toBe(before);
    }
  });
});
