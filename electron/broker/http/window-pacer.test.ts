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

describe('the full published count, each write held until its answer (Kite counts on its side of the network)', () => {
  /** A deterministic stream in [0, 1) (a linear congruential generator), so each run meets the same delays. */
  function seeded(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
      return s / 2_147_483_648;
    };
  }

  /**
   * `count` cancels through `pacer`, each answered `delay()` ms after it was let out; the broker
   * counts each one at some moment between its send and its answer (`where()` of the way).
   * Returns when each was let out and when the broker counted it.
   */
  async function run(
    pacer: WindowPacer,
    clock: ReturnType<typeof steppedClock>,
    count: number,
    delay: () => number,
    where: () => number,
  ): Promise<{ sent: number[]; counted: number[] }> {
    const sent: number[] = [];
    const counted: number[] = [];
    for (let i = 0; i < count; i += 1) {
      void pacer.take('cancel').then(async (at) => {
        sent.push(at);
        const d = delay();
        counted.push(at + where() * d);
        await clock.sleep(d);
        pacer.settled(at);
      });
    }
    await clock.advance(count * 1_000);
    return { sent, counted };
  }

  const PHASES = [0, 1, 250, 500, 700, 850, 999];

  it('never lets more than the count into one of the broker’s calendar seconds, whatever the delay on the way and the phase of its clock', async () => {
    const rnd = seeded(7);
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 10, ms: 1_000 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
    });
    // Delays anywhere up to 300 ms, the broker counting some on arrival and some just before answering.
    const { counted } = await run(
      pacer,
      clock,
      200,
      () => Math.round(rnd() * 300),
      () => (rnd() < 0.5 ? 0 : 1),
    );
    expect(counted).toHaveLength(200);
    for (const phase of PHASES) expect(mostInACalendarSecond(counted, phase)).toBeLessThanOrEqual(10);
  });

  it('reaches the count: ten a window, the next ten as soon as the first ones’ answers are a window old', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 10, ms: 1_000 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
    });
    const answeredAtOnce = await run(
      pacer,
      clock,
      30,
      () => 0,
      () => 0,
    );
    expect(answeredAtOnce.sent).toEqual([
      ...Array<number>(10).fill(0),
      ...Array<number>(10).fill(1_000),
      ...Array<number>(10).fill(2_000),
    ]);

    // Answered 40 ms after each send: a window and the answer's delay apart, still ten at a time.
    const clock2 = steppedClock();
    const pacer2 = new WindowPacer([{ limit: 10, ms: 1_000 }], null, clock2, Date.now, undefined, {
      untilAnswered: true,
    });
    const slower = await run(
      pacer2,
      clock2,
      20,
      () => 40,
      () => 1,
    );
    expect(slower.sent).toEqual([...Array<number>(10).fill(0), ...Array<number>(10).fill(1_040)]);
  });

  it('a write not yet answered keeps its place: nothing more goes until it is answered (or given back)', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 2, ms: 1_000 }], null, clock, Date.now, undefined, { untilAnswered: true });
    const a = await pacer.take('cancel');
    const b = await pacer.take('cancel');
    let third: number | null = null;
    void pacer.take('cancel').then((t) => (third = t));
    await clock.advance(5_000);
    // Neither was answered: either may yet be counted now, so the window is still full.
    expect(third).toBeNull();
    pacer.settled(a);
    await clock.advance(999);
    expect(third).toBeNull();
    await clock.advance(1);
    expect(third).toBe(6_000);
    // A 429 counts nothing: its place is free at once.
    let fourth: number | null = null;
    void pacer.take('cancel').then((t) => (fourth = t));
    await clock.advance(10);
    expect(fourth).toBeNull();
    pacer.giveBack(b);
    await clock.advance(1);
    expect(fourth).toBe(6_010);
  });

  it('the other writes leave the cancels’ reserve: a run of placements takes 8 of 10, and a cancel asked after them goes at once', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 10, ms: 1_000, cancelReserve: 2 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
    });
    const placed: number[] = [];
    for (let i = 0; i < 12; i += 1)
      void pacer.take('urgent').then((at) => {
        placed.push(at);
        pacer.settled(at);
      });
    await clock.advance(10);
    expect(placed).toHaveLength(8);
    const cancels: number[] = [];
    for (let i = 0; i < 3; i += 1)
      void pacer.take('cancel').then((at) => {
        cancels.push(at);
        pacer.settled(at);
      });
    await clock.advance(10);
    // Two go at once (the reserve); the third waits for the window, and then goes before the placements.
    expect(cancels).toEqual([10, 10]);
    await clock.advance(1_000);
    expect(cancels).toEqual([10, 10, 1_000]);
    expect(placed.slice(8)).toEqual([1_000, 1_000, 1_000, 1_000]);
  });
});

describe('a lane resuming after a broker’s pause sends its window whole', () => {
  /**
   * A broker refusing some writes with a 429 at once (`Retry-After: 1`) and accepting the others
   * `acceptMs` later, once it has acted on them (the paper broker answers a cancel after its
   * journal is on disk). `refused(i)` says which of the admissions it refuses, in admission order.
   * Returns each admission's time, and when the broker counted each write it accepted (`where()`
   * of the way from its send to its answer).
   */
  async function storm(
    pacer: WindowPacer,
    clock: ReturnType<typeof steppedClock>,
    count: number,
    refused: (i: number) => boolean,
    acceptMs: () => number,
    where: () => number = () => 1,
  ): Promise<{ sent: number[]; counted: number[] }> {
    const sent: number[] = [];
    const counted: number[] = [];
    let left = count;
    const cancel = async (): Promise<void> => {
      const at = await pacer.take('cancel');
      const i = sent.length;
      sent.push(at);
      if (refused(i)) {
        await clock.sleep(1);
        // The lane paused first, then the place given back (as the transport does).
        pacer.pause(1_000, 'cancel');
        pacer.giveBack(at);
        void cancel(); // sent again, as the kill switch does
        return;
      }
      const d = acceptMs();
      counted.push(at + where() * d);
      await clock.sleep(d);
      pacer.settled(at);
      left -= 1;
    };
    for (let i = 0; i < count; i += 1) void cancel();
    for (let s = 0; s < 600 && left > 0; s += 1) await clock.advance(1_000);
    return { sent, counted };
  }

  const kitePacer = (clock: ReturnType<typeof steppedClock>): WindowPacer =>
    new WindowPacer([{ limit: 10, ms: 1_000 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
      wholeAfterPauseMs: 250,
    });

  it('waits for the places the burst’s accepted writes still hold, then sends ten, rather than a part the next 429 stalls', async () => {
    const clock = steppedClock();
    // Every other write refused at once; the accepted ones answered 30 ms after they were sent.
    const { sent } = await storm(
      kitePacer(clock),
      clock,
      30,
      (i) => i % 2 === 0,
      () => 30,
    );
    // The first window at once; its 429s pause the lane until 1,001, its accepted writes hold
    // their places until 1,030: the next ten go together at 1,030, not five at 1,001 and the
    // rest a pause later.
    expect(sent.slice(0, 10)).toEqual(Array<number>(10).fill(0));
    expect(sent.slice(10, 20)).toEqual(Array<number>(10).fill(1_030));
    expect(sent.slice(20, 30)).toEqual(Array<number>(10).fill(2_060));
  });

  it('waits no longer than its bound: places held far past the pause’s end leave the rest to go at once', async () => {
    const clock = steppedClock();
    // The accepted writes answered 600 ms after they were sent: their places end at 1,600, far
    // past the pause's end at 1,001, so the five free places go when the pause ends.
    const { sent } = await storm(
      kitePacer(clock),
      clock,
      10,
      (i) => i % 2 === 0,
      () => 600,
    );
    expect(sent.slice(10, 15)).toEqual(Array<number>(5).fill(1_001));
  });

  it('never lets more than the count into one of the broker’s calendar seconds under a storm of 429s, whatever the delays', async () => {
    let s = 11;
    const rnd = (): number => {
      s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
      return s / 2_147_483_648;
    };
    const clock = steppedClock();
    const refusals = Array.from({ length: 2_000 }, () => rnd() < 0.5);
    const { counted } = await storm(
      kitePacer(clock),
      clock,
      200,
      (i) => refusals[i] === true,
      () => Math.round(rnd() * 300),
      () => (rnd() < 0.5 ? 0 : 1),
    );
    expect(counted).toHaveLength(200);
    for (const phase of [0, 1, 250, 500, 700, 850, 999])
      expect(mostInACalendarSecond(counted, phase)).toBeLessThanOrEqual(10);
  });
});

describe('a lane’s pause ending while the other lane waits for its window', () => {
  it('a cancel whose pause has ended goes at once, though placements still wait for an answer to make room for them', async () => {
    const clock = steppedClock();
    const pacer = new WindowPacer([{ limit: 10, ms: 1_000, cancelReserve: 2 }], null, clock, Date.now, undefined, {
      untilAnswered: true,
      wholeAfterPauseMs: 250,
    });
    const refusedCancel = await pacer.take('cancel');
    // Seven placements sent, none answered yet (the broker is slow to act on them).
    for (let i = 0; i < 7; i += 1) await pacer.take('urgent');
    // The cancel is answered 429, Retry-After 1 s: its lane paused, its place given back.
    pacer.pause(1_000, 'cancel');
    pacer.giveBack(refusedCancel);
    // An eighth placement fills the placements' share; a ninth waits for one of them to be answered.
    await pacer.take('urgent');
    let ninth: number | null = null;
    void pacer.take('urgent').then((at) => (ninth = at));
    // The kill switch sends the cancel again: it waits out the pause.
    let cancelled: number | null = null;
    void pacer.take('cancel').then((at) => (cancelled = at));
    await clock.advance(999);
    expect(cancelled).toBeNull();
    // The pause over, the window has room for a cancel (8 of 10): it goes, while the placements'
    // answers are still awaited.
    await clock.advance(1);
    expect(cancelled).toBe(1_000);
    expect(ninth).toBeNull();
  });
});
