import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Bracket, BracketRequest } from '@shared/domain/bracket';
import { isWorking } from '@shared/domain/order';
import { protectedQuantity } from '@shared/trading/bracket-rules';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { infyBracket } from '../testing/bracket-requests';
import type { TradingCore } from '../trading-core';

/**
 * A model-based test of the protection controller (docs/brackets.md §The controller) on the real
 * paper broker: random interleavings of price moves across the exits, manual partial exits, 429
 * storms, reads refused, the stream cut, main restarted, a bracket sent twice at once from two
 * windows. After each step, once main can see again and has converged: the working exits on a
 * side never exceed what is held, no exit reversed the position, a held position under
 * protection has a working stop-loss covering it or is flagged UNPROTECTED, and nothing is done
 * while what it protects is still held.
 *
 * Main cannot cancel the other exit while it is blind (stream cut and every read refused), so
 * the model moves the price across an exit only while main can see (docs/brackets.md §Limits).
 */

type Step =
  | { readonly t: 'price'; readonly to: 'stop' | 'target' | 'middle' }
  | { readonly t: 'sell'; readonly qty: number }
  | { readonly t: 'storm' | 'read-storm' | 'calm' | 'cut' | 'mend' | 'restart' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    t: fc.constant('price' as const),
    to: fc.constantFrom('stop' as const, 'target' as const, 'middle' as const),
  }),
  fc.record({ t: fc.constant('sell' as const), qty: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    t: fc.constantFrom(
      'storm' as const,
      'read-storm' as const,
      'calm' as const,
      'cut' as const,
      'mend' as const,
      'restart' as const,
    ),
  }),
);

const REQUEST: BracketRequest = infyBracket(10, { stop: 1480, target: 1530 });
const PRICES = { stop: 1475, target: 1535, middle: 1500 } as const;

interface World {
  fx: CoreFixture;
  core: TradingCore;
  infy: number;
  faults: { storm: boolean; reads: boolean; cut: boolean };
}

async function open(fx: CoreFixture): Promise<TradingCore> {
  const core = await fx.newCore({
    stream: true,
    brackets: { everyMs: 40 },
    placementTimings: { resendWindowMs: 250, landingHorizonMs: 250, answerDeadlineMs: 800 },
  });
  await core.start();
  return core;
}

const blind = (w: World): boolean => w.faults.cut && (w.faults.storm || w.faults.reads);

function applyFaults(w: World): void {
  w.fx.paper.setFaults({
    ...(w.faults.storm ? { rate_limit: 1 } : {}),
    ...(w.faults.reads ? { read_rate_limit: 1 } : {}),
    retry_after_s: 1,
  });
  w.fx.paper.setStreamAccepting(!w.faults.cut);
}

/** What the broker holds and has working for INFY MIS. */
async function truth(core: TradingCore): Promise<{ held: number; stops: number; targets: number }> {
  const positions = await core.broker.listPositions();
  const held = positions.find((p) => p.tradingsymbol === 'INFY' && p.product === 'MIS')?.quantity ?? 0;
  const orders = await core.broker.listOrders();
  const open = (type: string): number =>
    orders
      .filter((o) => o.transactionType === 'SELL' && o.orderType === type && isWorking(o.status))
      .reduce((n, o) => n + o.quantity - o.filledQuantity, 0);
  return { held, stops: open('SL-M'), targets: open('LIMIT') };
}

/** The invariants, once main has converged on what the broker says. */
async function converged(w: World, ids: readonly string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const t = await truth(w.core);
      const brackets = ids.map((id) => w.core.brackets.get(id)).filter((b): b is Bracket => b !== undefined);
      expect(t.held, 'no exit reversed the position').toBeGreaterThanOrEqual(0);
      expect(t.stops, 'working stops never exceed what is held').toBeLessThanOrEqual(t.held);
      expect(t.targets, 'working targets never exceed what is held').toBeLessThanOrEqual(t.held);
      for (const b of brackets) {
        if (b.restoring) throw new Error('still reading back');
        const stopOpen = b.stop?.status === 'working' ? b.stop.order.quantity - b.stop.filled : 0;
        // A held position under protection: a working stop-loss covering it, or UNPROTECTED on screen.
        const covering = Math.min(t.held, protectedQuantity(b));
        if (b.phase === 'protecting' && covering > 0)
          expect(stopOpen >= covering || b.unprotected !== null, `stop ${stopOpen} of ${covering}, not flagged`).toBe(
            true,
          );
        // Nothing is done while what it protects is still held.
        if (b.phase === 'done' && !b.cancelRequested) expect(t.held, `done (${b.outcome ?? ''}) while held`).toBe(0);
      }
    },
    { timeout: 20_000, interval: 100 },
  );
}

describe('protection under random interleavings (model-based)', () => {
  it('converges: exits never exceed or reverse what is held; a held protected position has a stop or is UNPROTECTED', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(step, { minLength: 2, maxLength: 6 }), async (twoWindows, steps) => {
        const fx = await startCoreFixture();
        try {
          const core = await open(fx);
          const infy = (await core.catalog.find('NSE', 'INFY'))?.instrumentToken ?? 0;
          core.setSubscriptions(new Set([infy]));
          fx.paper.setPrice(infy, 1500);
          const w: World = { fx, core, infy, faults: { storm: false, reads: false, cut: false } };
          // Two windows (or a repeated frame) sending the same click at once make one bracket.
          const sent = await Promise.all(
            (twoWindows ? [1, 2] : [1]).map(() => core.brackets.create(REQUEST, { requestId: 'rq-model-0000001' })),
          );
          const ids = [...new Set(sent.map((s) => s.bracket.id))];
          expect(ids).toHaveLength(1);
          await converged(w, ids);
          let sells = 0;
          for (const s of steps) {
            switch (s.t) {
              case 'price':
                if (blind(w)) break;
                await converged(w, ids);
                fx.paper.setPrice(infy, PRICES[s.to]);
                break;
              case 'sell': {
                if (w.faults.storm) break;
                const held = (await truth(w.core).catch(() => null))?.held ?? 0;
                if (held < s.qty) break;
                await w.core.orders
                  .place(
                    { ...REQUEST.entry, transactionType: 'SELL', quantity: s.qty },
                    { requestId: `rq-model-sell-${(sells += 1)}` },
                  )
                  .catch(() => undefined);
                break;
              }
              case 'storm':
                w.faults.storm = true;
                break;
              case 'read-storm':
                w.faults.reads = true;
                break;
              case 'cut':
                w.faults.cut = true;
                break;
              case 'calm':
                w.faults.storm = false;
                w.faults.reads = false;
                break;
              case 'mend':
                w.faults.cut = false;
                break;
              case 'restart':
                await w.core.close();
                w.core = await open(fx);
                w.core.setSubscriptions(new Set([infy]));
                await w.core.bracketRecovery();
                break;
            }
            applyFaults(w);
            if (!blind(w) && !w.faults.storm) await converged(w, ids);
          }
          w.faults = { storm: false, reads: false, cut: false };
          applyFaults(w);
          await converged(w, ids);
        } finally {
          await fx.close();
        }
      }),
      { numRuns: 5, seed: 33, endOnFailure: true },
    );
  }, 300_000);
});
