import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerUsage } from '@shared/domain/usage';
import { pool, startCoreFixture, type CoreFixture } from '../../core/testing/core-fixture';

/**
 * The limits a broker publishes, against the real paper broker: the adapter reads them from the
 * RateLimit-Policy header, the client paces itself under them, and the request meter reports
 * what the desk spends against them (docs/brokers.md §The request meter).
 */
describe('published broker limits', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  it('before any reply the adapter assumes the documented 10/s, burst 20; the first reply replaces it with what the broker publishes', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 4, burst: 8 } });
    const core = await fx.newCore();
    expect(core.broker.limits()).toMatchObject({ requests: { perSecond: 10, burst: 20 }, source: 'documented' });
    await core.start();
    await core.broker.getFunds();
    expect(core.broker.limits()).toMatchObject({ requests: { perSecond: 4, burst: 8 }, source: 'broker' });
  });

  it('a burst of reads against a broker publishing 4/s, burst 8 meets no 429: the client bucket is sized from it', async () => {
    fx = await startCoreFixture({ rate: { perSecond: 4, burst: 8 } });
    const core = await fx.newCore({ readBudgetMs: 30_000 }); // default client bucket: sized from the broker
    await core.start();
    const tokens = (await core.broker.listInstruments()).slice(0, 16).map((i) => i.instrumentToken);
    const results = await pool(tokens.length, tokens.length, (i) =>
      core.broker.getCandles(tokens[i] ?? 0, { interval: 'day' }),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(core.stats.rateLimited).toBe(0);
  });

  it('the request meter counts what was sent against the broker’s published limit and the desk’s pace', async () => {
    fx = await startCoreFixture();
    const published: BrokerUsage[] = [];
    const core = await fx.newCore({ events: { onUsage: (u) => published.push(u) } });
    await core.start();
    await core.catalog.find('NSE', 'INFY'); // the login's background reads are done
    const before = core.usage()?.requests ?? 0;
    await core.broker.getFunds();
    await core.broker.listPositions();
    expect(core.usage()).toMatchObject({
      broker: 'Paper broker',
      requests: before + 2,
      limit: { perSecond: 10, burst: 20 },
      limitSource: 'broker',
      pace: { perSecond: 8, burst: 16 },
    });
    await expect.poll(() => published.at(-1)?.requests, { timeout: 5_000 }).toBe(before + 2);
  });
});
