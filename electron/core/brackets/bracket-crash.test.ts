import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildChild } from '../testing/build-child';
import { BRACKET_KILL_POINTS } from '../testing/bracket-crash-points';
import { runChild } from '../testing/run-child';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';

/**
 * Crash points between a bracket's entry fill and its exits (docs/brackets.md §Crash tests): a
 * child process places a bracket whose MARKET entry fills at once and is SIGKILLed at a named
 * point between the fill and the stop-loss/target pair being placed; a new core on the same data
 * folder reads the bracket back from the broker and finishes the job. On a broker that would
 * take a reused reference as a second order, exactly one pair exists, whatever the point.
 */

const HORIZON_MS = 300;

describe('a bracket whose process dies between the entry fill and its exits', () => {
  let fx: CoreFixture;
  let script: string;

  beforeAll(async () => {
    // No unique references: a second send of the same reference would be a second order.
    fx = await startCoreFixture({ rate: { perSecond: 100_000, burst: 100_000 }, idempotency: false });
    script = await buildChild('bracket-child', fx.dir);
    const probe = await fx.newCore();
    await probe.start();
    const infy = (await probe.catalog.find('NSE', 'INFY'))?.instrumentToken ?? 0;
    await probe.close();
    fx.paper.setPrice(infy, 1500);
  });
  afterAll(async () => fx.close());

  it.each(BRACKET_KILL_POINTS)(
    'killed at %s: after the restart exactly one stop-loss and one target exist',
    async (point) => {
      const dir = await mkdtemp(join(fx.dir, `bracket-${point}-`));
      const run = await runChild(script, [fx.paper.url, dir, point]);
      expect(run.killed, `the child died at ${point}, not by finishing (${run.out})`).toBe(true);

      const core = await fx.newCore({
        dataDir: dir,
        rate: null,
        brackets: { everyMs: 20 },
        placementTimings: { resendWindowMs: HORIZON_MS, landingHorizonMs: HORIZON_MS, answerDeadlineMs: 1_000 },
      });
      await core.start();
      await core.bracketRecovery();
      const [b] = core.brackets.list();
      expect(b?.kind).toBe('entry');
      await vi.waitFor(
        () => {
          const now = core.brackets.get(b?.id ?? '');
          expect([now?.phase, now?.stop?.status, now?.target?.status]).toEqual(['protecting', 'working', 'working']);
        },
        { timeout: 15_000, interval: 20 },
      );
      const now = core.brackets.get(b?.id ?? '');
      const refs = [now?.entry?.ref, now?.stop?.ref, now?.target?.ref];
      const orders = await core.broker.listOrders();
      const count = refs.map((ref) => orders.filter((o) => o.clientOrderId === ref).length);
      expect(count, 'orders per reference: entry, stop-loss, target').toEqual([1, 1, 1]);
      const exits = orders.filter((o) => o.clientOrderId === refs[1] || o.clientOrderId === refs[2]);
      expect(exits.map((o) => [o.orderType, o.transactionType, o.quantity, o.status]).sort()).toEqual([
        ['LIMIT', 'SELL', 4, 'OPEN'],
        ['SL-M', 'SELL', 4, 'TRIGGER PENDING'],
      ]);
      // The next point's bracket starts on a clean account: no exits of this one left working to reduce its position.
      await core.brackets.cancel(b?.id ?? '');
      await vi.waitFor(() => expect(core.brackets.get(b?.id ?? '')?.phase).toBe('done'), { timeout: 5_000 });
      await core.close();
    },
  );
});
