import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { createQuotesStore, focusPaced } from './quotes-store';

const tick = (token: number, price: number, ts = '2026-11-23T10:00:00+05:30'): Tick => ({
  instrumentToken: token,
  lastPrice: price,
  volume: 1,
  ts,
});

/** A store whose frames the test runs by hand: `frame()` is the next animation frame. */
function manualStore() {
  let queued: Array<() => void> = [];
  const store = createQuotesStore((work) => queued.push(work));
  const frame = (): void => {
    const run = queued;
    queued = [];
    for (const w of run) w();
  };
  return { store, frame, framesAsked: () => queued.length };
}

describe('quotes store', () => {
  it('a tick for one instrument notifies that instrument’s subscriber and not another row’s', () => {
    const { store, frame } = manualStore();
    const seen = { itc: 0, infy: 0 };
    store.subscribe(1, () => (seen.itc += 1));
    store.subscribe(2, () => (seen.infy += 1));
    store.push([tick(1, 410)], 1_000, 'stream');
    frame();
    expect(seen).toEqual({ itc: 1, infy: 0 });
    expect(store.get(1)?.lastPrice).toBe(410);
    expect(store.get(2)).toBeUndefined();
  });

  it('applies every batch that arrived within a frame at that frame, telling each subscriber once', () => {
    const { store, frame, framesAsked } = manualStore();
    let calls = 0;
    let whole = 0;
    store.subscribe(1, () => (calls += 1));
    store.subscribeAll(() => (whole += 1));
    store.push([tick(1, 410, '2026-11-23T10:00:00+05:30')], 1_000, 'stream');
    store.push([tick(1, 411, '2026-11-23T10:00:01+05:30'), tick(2, 20)], 1_100, 'stream');
    expect(framesAsked()).toBe(1);
    expect(store.get(1)).toBeUndefined(); // nothing shown before the frame
    frame();
    expect(store.get(1)).toMatchObject({ lastPrice: 411, receivedAt: 1_100, source: 'stream' });
    expect(calls).toBe(1);
    expect(whole).toBe(1);
  });

  it('keeps a quote and the whole map the same objects when a batch moves nothing they hold', () => {
    const { store, frame } = manualStore();
    store.push([tick(1, 10), tick(2, 20)], 1_000, 'stream');
    frame();
    const all = store.all();
    const itc = store.get(1);
    expect(store.all()).toBe(all);
    store.push([tick(2, 21, '2026-11-23T10:00:01+05:30')], 2_000, 'stream');
    frame();
    expect(store.get(1)).toBe(itc);
    expect(store.all()).not.toBe(all);
    expect(store.all()[2]?.lastPrice).toBe(21);
  });

  it('never moves a price back to an older tick (a late poll after a stream tick), and tells nobody', () => {
    const { store, frame } = manualStore();
    store.push([tick(1, 11, '2026-11-23T10:00:05+05:30')], 1_000, 'stream');
    frame();
    let calls = 0;
    store.subscribe(1, () => (calls += 1));
    store.push([tick(1, 10, '2026-11-23T10:00:01+05:30')], 2_000, 'poll');
    frame();
    expect(store.get(1)).toMatchObject({ lastPrice: 11, source: 'stream' });
    expect(calls).toBe(0);
  });

  it('gives an event handler the price queued this frame (latest), before the frame applies it', () => {
    const { store } = manualStore();
    store.push([tick(1, 410)], 1_000, 'stream');
    expect(store.latest(1)?.lastPrice).toBe(410);
  });

  it('stops telling a subscriber once it unsubscribes', () => {
    const { store, frame } = manualStore();
    let calls = 0;
    const off = store.subscribe(1, () => (calls += 1));
    off();
    store.push([tick(1, 410)], 1_000, 'stream');
    frame();
    expect(calls).toBe(0);
  });
});

describe('a window without the focus', () => {
  /** Frames and timers the test runs by hand, on a clock it moves. */
  function pacedStore() {
    const env = {
      focused: true,
      t: 0,
      frames: [] as Array<() => void>,
      timers: [] as Array<{ at: number; work: () => void }>,
    };
    const store = createQuotesStore(
      focusPaced(
        (work) => env.frames.push(work),
        () => env.focused,
        () => env.t,
        (ms, work) => env.timers.push({ at: env.t + ms, work }),
      ),
    );
    /** Moves the clock by `ms` in frames of 16 ms, running timers and frames as they come; returns the frames that drew. */
    const run = (ms: number): number => {
      let drew = 0;
      for (const end = env.t + ms; env.t < end;) {
        env.t += 16;
        for (const timer of env.timers.filter((x) => x.at <= env.t)) {
          env.timers.splice(env.timers.indexOf(timer), 1);
          timer.work();
        }
        const frame = env.frames;
        env.frames = [];
        for (const w of frame) w();
        if (frame.length > 0) drew += 1;
      }
      return drew;
    };
    return { env, store, run };
  }

  it('draws prices at most four times a second; focused, at every frame with a tick, never fewer', () => {
    const { env, store, run } = pacedStore();
    let seen = 0;
    store.subscribe(1, () => (seen += 1));
    // A tick every frame for a second, focused: a frame each.
    for (let i = 0; i < 60; i += 1) {
      store.push([tick(1, 400 + i)], env.t, 'stream');
      run(16);
    }
    expect(seen).toBe(60);
    env.focused = false;
    seen = 0;
    for (let i = 0; i < 60; i += 1) {
      store.push([tick(1, 500 + i)], env.t, 'stream');
      run(16);
    }
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(seen).toBeLessThanOrEqual(5);
    // Each drawing shows the latest price, not an old one.
    run(300);
    expect(store.get(1)?.lastPrice).toBe(559);
  });
});
