import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { steppedClock } from '../testing/stepped-clock';
import { NotAdmitted, type Priority } from './token-bucket';
import { WindowPacer } from './window-pacer';

/** Kite's order windows as the desk builds them (core/trading-core.ts `orderWindowPacer`). */
const kitePacer = (clock: ReturnType<typeof steppedClock>): WindowPacer =>
  new WindowPacer(
    [
      { limit: 10, ms: 1_000, cancelReserve: 2 },
      { limit: 380, ms: 60_000 },
    ],
    null,
    clock,
    Date.now,
    undefined,
    { untilAnswered: true, wholeAfterPauseMs: 250 },
  );

const write = fc.record({
  arriveAt: fc.integer({ min: 0, max: 1_500 }),
  lane: fc.constantFrom<Priority>('cancel', 'urgent', 'normal'),
  refusals: fc.integer({ min: 0, max: 2 }),
  answerMs: fc.integer({ min: 0, max: 400 }),
  countedAt: fc.constantFrom(0, 0.5, 1),
  abortAfter: fc.option(fc.integer({ min: 0, max: 2_500 }), { nil: undefined }),
});

describe('the Kite pacer under any mix of cancels, placements, 429s, late answers and callers giving up', () => {
  it('never lets more than 10 into one of the broker’s calendar seconds, admits nobody in a paused lane, and leaves no caller waiting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 60, size: 'max' }), async (writes) => {
        const clock = steppedClock();
        const pacer = kitePacer(clock);
        const counted: number[] = [];
        const pausedUntil: Record<'cancel' | 'other', number> = { cancel: -1, other: -1 };
        const problems: string[] = [];
        let open = writes.length;
        const one = async (w: (typeof writes)[number], i: number): Promise<void> => {
          await clock.sleep(w.arriveAt);
          const giveUp = new AbortController();
          let gaveUpAt = Number.POSITIVE_INFINITY;
          if (w.abortAfter !== undefined)
            void clock.sleep(w.abortAfter).then(() => {
              gaveUpAt = clock.now();
              giveUp.abort();
            });
          const lane = w.lane === 'cancel' ? 'cancel' : 'other';
          let refusals = w.refusals;
          for (;;) {
            let at: number;
            try {
              at = await pacer.take(w.lane, giveUp.signal);
            } catch (e) {
              if (!(e instanceof NotAdmitted)) problems.push(`${i}: ${String(e)}`);
              return;
            }
            if (at > gaveUpAt) problems.push(`${i} admitted at ${at}, after giving up at ${gaveUpAt}`);
            if (at < pausedUntil[lane])
              problems.push(`${i} admitted at ${at} in its lane's pause to ${pausedUntil[lane]}`);
            if (refusals > 0) {
              refusals -= 1;
              await clock.sleep(1);
              // The broker said to wait a second: nobody of the lane may go before it ends.
              pausedUntil[lane] = Math.max(pausedUntil[lane], clock.now() + 1_000);
              // As the transport does: the lane paused first, then the place given back.
              pacer.pause(1_000, w.lane);
              pacer.giveBack(at);
              continue;
            }
            counted.push(at + w.countedAt * w.answerMs);
            await clock.sleep(w.answerMs);
            pacer.settled(at);
            return;
          }
        };
        writes.forEach((w, i) => void one(w, i).finally(() => (open -= 1)));
        for (let s = 0; s < 200 && open > 0; s += 1) await clock.advance(1_000);
        expect(problems).toEqual([]);
        expect(open).toBe(0);
        for (const phase of [0, 1, 250, 500, 700, 850, 999]) {
          const per = new Map<number, number>();
          for (const t of counted)
            per.set(Math.floor((t + phase) / 1000), (per.get(Math.floor((t + phase) / 1000)) ?? 0) + 1);
          expect(Math.max(0, ...per.values())).toBeLessThanOrEqual(10);
        }
        // Nothing leaked: with everyone answered, a write asked a window later goes at once.
        await clock.advance(2_000);
        const t = clock.now();
        const late = pacer.take('urgent');
        await clock.advance(0);
        await expect(late).resolves.toBe(t);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});
