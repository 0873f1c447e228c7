import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { steppedClock } from '../testing/stepped-clock';
import { LimitReached } from '../broker-error';
import { NotAdmitted } from './token-bucket';
import { WindowPacer } from './window-pacer';

/** The most admissions in any calendar second [k·1000, k·1000 + 999], whatever the phase. */
function mostInACalendarSecond(times: readonly number[], phase: number): number {
  const per = new Map<number, number>();
  for (const t of times) per.set(Math.floor((t + phase) / 1000), (per.get(Math.floor((t + phase) / 1000)) ?? 0) + 1);
  return Math.max(...per.values());
}

describe('order writes paced in sliding windows (Kite counts calendar windows)', () => {
  it('never puts more than the paced count in any calendar second, at any phase of the broker’s clock', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 8, ms: 1_000 }], null, clock);
    const admitted: number[] = [];
    for (let i = 0; i < 40; i += 1) void pacer.take('urgent').then((t) => admitted.push(t));
    await clock.advance(10_000);
    expect(admitted).toHaveLength(40);
    for (const phase of [0, 1, 250, 500, 999]) expect(mostInACalendarSecond(admitted, phase)).toBeLessThanOrEqual(8);
    // And it keeps the pace: 40 in five seconds, not more.
    expect(admitted.at(-1)).toBe(4_000);
  });

  it('holds a minute’s count too, and lets cancels go first', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer(
      [
        { limit: 8, ms: 1_000 },
        { limit: 10, ms: 60_000 },
      ],
      null,
      clock,
    );
    const order: string[] = [];
    for (let i = 0; i < 10; i += 1) void pacer.take('urgent').then(() => order.push(`place${i}`));
    await clock.advance(2_000);
    expect(order).toHaveLength(10);
    // The minute is full: the next placement waits for it, and a cancel asked later goes first.
    void pacer.take('urgent').then(() => order.push('place10'));
    void pacer.take('cancel').then(() => order.push('cancel'));
    await clock.advance(30_000);
    expect(order.slice(10)).toEqual([]);
    await clock.advance(30_000);
    expect(order.slice(10)).toEqual(['cancel', 'place10']);
  });

  it('a caller who gives up leaves without counting; a day used up refuses at once, nothing waits', async () => {
    const clock = steppedClock();
    let wall = Date.parse('2026-11-26T10:00:00+05:30');
    const pacer = new WindowPacer(
      [{ limit: 1, ms: 1_000 }],
      {
        limit: 2,
        dayOf: (t) => new Date(t + 19_800_000).toISOString().slice(0, 10),
        endOf: (t) => Math.floor((t + 19_800_000) / 86_400_000 + 1) * 86_400_000 - 19_800_000,
        label: 'Kite allows 2 orders a day',
      },
      clock,
      () => wall,
    );
    await pacer.take();
    const giveUp = new AbortController();
    const late = pacer.take('urgent', giveUp.signal);
    giveUp.abort();
    await expect(late).rejects.toBeInstanceOf(NotAdmitted);
    const second = pacer.take();
    await clock.advance(1_000);
    await expect(second).resolves.toBe(1_000);
    const third = pacer.take().catch((e: unknown) => e);
    await clock.advance(1_000);
    const err = await third;
    expect(err).toBeInstanceOf(LimitReached);
    expect((err as LimitReached).info).toMatchObject({ kind: 'rate_limited', message: /today's are used up/ });
    // The next IST day counts again.
    wall += 86_400_000;
    const nextDay = pacer.take();
    await clock.advance(1_000);
    await expect(nextDay).resolves.toBeGreaterThan(0);
  });

  it('a pause holds its lane without counting it: when it ends, the window is whole; the other lane goes on meanwhile', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 4, ms: 1_000 }], null, clock);
    pacer.pause(1_000, 'cancel');
    const cancels: number[] = [];
    for (let i = 0; i < 4; i += 1) void pacer.take('cancel').then((t) => cancels.push(t));
    let placed: number | null = null;
    void pacer.take('urgent').then((t) => (placed = t));
    await clock.advance(999);
    // Nothing of the paused lane was admitted (nor counted); the placement went at once.
    expect(cancels).toEqual([]);
    expect(placed).toBe(0);
    await clock.advance(1);
    // At the pause's end the window is whole (the placement's slot has just aged out): all four
    // at once, none of them counted while it could not be sent.
    expect(cancels).toEqual([1_000, 1_000, 1_000, 1_000]);
  });

  it('an answered caller leaves nothing on its signal: one signal can go with a thousand requests (a kill switch and its Stop)', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 10, ms: 1_000 }], null, clock);
    const stop = new AbortController();
    const taken = Array.from({ length: 30 }, () => pacer.take('cancel', stop.signal));
    expect(getEventListeners(stop.signal, 'abort').length).toBeGreaterThan(0);
    await clock.advance(5_000);
    await Promise.all(taken);
    expect(getEventListeners(stop.signal, 'abort')).toEqual([]);
  });

  it('a place given back (the broker refused that write with a 429, which counts nothing) goes to the next write at once, the day’s count too', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer(
      [{ limit: 1, ms: 60_000 }],
      { limit: 1, dayOf: () => 'today', endOf: (t) => t + 3_600_000, label: 'The broker allows 1 order a day' },
      clock,
    );
    const first = await pacer.take('urgent');
    let second: number | string | null = null;
    void pacer.take('urgent').then(
      (at) => (second = at),
      (e: unknown) => (second = e instanceof Error ? e.message : String(e)),
    );
    await clock.advance(10);
    expect(second).toBeNull(); // the minute's one place is taken
    pacer.giveBack(first);
    await clock.advance(10);
    expect(second).toBe(10);
  });
});
