import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChild } from '../testing/build-child';
import { runChild } from '../testing/run-child';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { infyGttSell } from '../testing/gtt-requests';

/**
 * A GTT creation is journaled in the intents ledger (docs/gtt.md §When the broker fails): a host
 * SIGKILLed mid-create and restarted never creates it twice when the dialog retries the click
 * under the same request id, and a create that never left is not reported created.
 */

describe('GTT creation across a SIGKILL of the host', () => {
  let fx: CoreFixture;
  let script: string;
  beforeAll(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 } });
    script = await buildChild('gtt-child', fx.dir);
    const probe = await fx.newCore();
    await probe.start();
    const infy = (await probe.broker.listInstruments()).find((i) => i.tradingsymbol === 'INFY' && i.exchange === 'NSE');
    fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
    await probe.close();
  });
  afterAll(async () => fx.close());

  it('the create reached the broker, its reply died with the host; after a restart the same request id answers that GTT and creates no second one', async () => {
    const before = fx.paper.gttCount();
    const request = infyGttSell(1610);
    const run = await runChild(script, [fx.paper.url, fx.dir, 'replied', 'req-gtt-crash-1', JSON.stringify(request)]);
    expect(run.killed).toBe(true);
    expect(run.said('send')).toHaveLength(1);
    expect(fx.paper.gttCount()).toBe(before + 1);

    const core = await fx.newCore();
    await core.start();
    const again = await core.gtt.place(request, 'req-gtt-crash-1');
    expect(again).toMatchObject({ state: 'placed', clientGttId: run.said('send')[0] });
    expect(fx.paper.gttCount()).toBe(before + 1);
    const held = (await core.gtt.list()).filter((g) => g.clientGttId === run.said('send')[0]);
    expect(held.map((g) => g.gttId)).toEqual([again.state === 'placed' ? again.gttId : '?']);
    await core.close();
  });

  it('killed with the intent on disk and nothing sent: after a restart the same request id creates nothing and says it was not found', async () => {
    const before = fx.paper.gttCount();
    const request = infyGttSell(1620);
    const run = await runChild(script, [fx.paper.url, fx.dir, 'journaled', 'req-gtt-crash-2', JSON.stringify(request)]);
    expect({ killed: run.killed, sent: run.said('send') }).toEqual({ killed: true, sent: [] });

    const core = await fx.newCore();
    await core.start();
    await core.recovery();
    const again = await core.gtt.place(request, 'req-gtt-crash-2');
    expect(again.state).toBe('unconfirmed');
    expect(again.state === 'unconfirmed' ? again.detail : '').toMatch(/not in its GTT list/);
    expect(fx.paper.gttCount()).toBe(before);
    await core.close();
  });
});
