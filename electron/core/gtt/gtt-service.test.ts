import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GttPlaceOutcome } from '@shared/domain/gtt';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { infyGttSell } from '../testing/gtt-requests';
import type { TradingCore } from '../trading-core';
import { IntentsLedger } from '../ledger/intents-ledger';
import { GttService } from './gtt-service';

/**
 * Main's GTT service against the real paper broker with its faults (docs/gtt.md §When the broker
 * fails): a create is never reported failed when the broker created it, and never sent twice.
 */

describe('GTT creation when the broker fails mid-way', () => {
  let fx: CoreFixture;
  let core: TradingCore;
  beforeEach(async () => {
    fx = await startCoreFixture({ rate: { perSecond: 10_000, burst: 10_000 } });
    core = await fx.newCore();
    await core.start();
    const infy = (await core.broker.listInstruments()).find((i) => i.tradingsymbol === 'INFY' && i.exchange === 'NSE');
    fx.paper.setPrice(infy?.instrumentToken ?? 0, 1500);
  });
  afterEach(async () => fx.close());

  it('40 creates under dropped replies, 5xx and 429: every refused one exists nowhere, every placed one exactly once, none twice', async () => {
    let n = 0;
    // The price and the instrument are known before the faults start: only the creates and
    // their lookups meet them.
    const instrument = await core.catalog.find('NSE', 'INFY');
    const ledger = await IntentsLedger.open(join(fx.dir, 'gtt-fault-intents.jsonl'));
    const service = new GttService({
      broker: core.broker,
      ledger,
      find: () => Promise.resolve(instrument),
      lastPrice: () => Promise.resolve(1500),
      newId: () => `gtt-fault-${++n}`,
    });
    fx.paper.setFaults({ drop_reply: 0.3, server_error: 0.2, rate_limit: 0.1 });
    const answers: Array<{ id: string; outcome: GttPlaceOutcome | 'refused' }> = [];
    for (let i = 0; i < 40; i++) {
      const outcome = await service.place(infyGttSell(1600 + i)).catch(() => 'refused' as const);
      answers.push({ id: `gtt-fault-${n}`, outcome });
    }
    fx.paper.setFaults({});
    await ledger.close();
    const held = await core.broker.listGtts();
    const count = (id: string): number => held.filter((g) => g.clientGttId === id).length;
    for (const a of answers) {
      if (a.outcome === 'refused') expect(count(a.id), `${a.id} was refused`).toBe(0);
      else if (a.outcome.state === 'placed') expect(count(a.id), `${a.id} was placed`).toBe(1);
      else expect(count(a.id), `${a.id} is unconfirmed`).toBeLessThanOrEqual(1);
    }
    expect(held.length).toBe(fx.paper.gttCount());
    // The campaign met every kind of answer, or it proved nothing.
    expect(answers.some((a) => a.outcome === 'refused')).toBe(true);
    expect(answers.some((a) => a.outcome !== 'refused' && a.outcome.state === 'placed')).toBe(true);
  });

  it('the same request id twice sends one create and answers the same GTT', async () => {
    const before = fx.paper.gttCount();
    const [a, b] = await Promise.all([
      core.gtt.place(infyGttSell(1560), 'req-gtt-0001'),
      core.gtt.place(infyGttSell(1560), 'req-gtt-0001'),
    ]);
    expect(a).toEqual(b);
    expect(fx.paper.gttCount()).toBe(before + 1);
  });
});
