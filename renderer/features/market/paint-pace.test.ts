import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { focusPaced, unfocusedNote } from './paint-pace';
import { createQuotesStore } from './quotes-store';

const tick = (token: number, price: number): Tick => ({
  instrumentToken: token,
  lastPrice: price,
  volume: 1,
  ts: '2026-11-23T10:00:00+05:30',
});

/**
 * A window's quotes store paced by `focusPaced`, on frames, timers, a clock and a focus the test
 * moves by hand. `draws` records, for each time instrument 1's price was drawn, when and at what.
 */
function pacedWindow() {
  const env = {
    focused: true,
    t: 0,
    frames: [] as Array<() => void>,
    timers: [] as Array<{ at: number; work: () => void }>,
    focusListeners: new Set<() => void>(),
  };
  const store = createQuotesStore(
    focusPaced({
      frame: (work) => env.frames.push(work),
      focused: () => env.focused,
      onFocusChange: (l) => {
        env.focusListeners.add(l);
        return () => env.focusListeners.delete(l);
      },
      now: () => env.t,
      after: (ms, work) => env.timers.push({ at: env.t + ms, work }),
    }),
  );
  const draws: Array<{ at: number; price: number | undefined }> = [];
  store.subscribe(1, () => draws.push({ at: env.t, price: store.get(1)?.lastPrice }));
  let price = 400;
  /** Moves the clock one 16 ms frame: due timers, then the frame's work. */
  const frame = (): void => {
    env.t += 16;
    for (const timer of env.timers.filter((x) => x.at <= env.t)) {
      env.timers.splice(env.timers.indexOf(timer), 1);
      timer.work();
    }
    const work = env.frames;
    env.frames = [];
    for (const w of work) w();
  };
  /** A tick for instrument 1 at every frame for `ms`; returns the last price sent. */
  const ticking = (ms: number): number => {
    for (const end = env.t + ms; env.t < end;) {
      price += 1;
      store.push([tick(1, price)], env.t, 'stream');
      frame();
    }
    return price;
  };
  const setFocused = (v: boolean): void => {
    env.focused = v;
    for (const l of [...env.focusListeners]) l();
  };
  return { env, store, draws, frame, ticking, setFocused };
}

describe('a window with the focus', () => {
  it('draws every frame that brings a tick, never fewer', () => {
    const w = pacedWindow();
    const last = w.ticking(1_000);
    expect(w.draws.length).toBe(Math.ceil(1_000 / 16));
    expect(w.draws.at(-1)?.price).toBe(last);
  });
});

describe('a window without the focus', () => {
  it('draws prices at most once a second, each drawing the latest price', () => {
    const w = pacedWindow();
    w.ticking(100);
    w.setFocused(false);
    const from = w.draws.length;
    const sent: Array<{ at: number; price: number }> = [];
    for (let i = 0; i < 4_000 / 16; i += 1) sent.push({ at: w.env.t, price: w.ticking(16) });
    const slow = w.draws.slice(from);
    // Still moving: about one drawing a second over four seconds, never two within a second.
    expect(slow.length).toBeGreaterThanOrEqual(3);
    expect(slow.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < slow.length; i += 1) expect(slow[i]!.at - slow[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
    // What is drawn is the newest price sent before that frame, never an older one.
    for (const d of slow) expect(d.price).toBe(sent.filter((s) => s.at < d.at).at(-1)?.price);
  });

  it('draws what it holds at the next frame once the focus comes back, and every frame after', () => {
    const w = pacedWindow();
    w.ticking(100);
    w.setFocused(false);
    w.ticking(1_100); // one slow drawing, then ticks held again
    const held = w.ticking(200);
    const before = w.draws.length;
    w.setFocused(true);
    w.frame();
    expect(w.draws.length).toBe(before + 1);
    expect(w.draws.at(-1)?.price).toBe(held);
    // Focused: a drawing per frame at once, the slow pace's second notwithstanding.
    w.ticking(160);
    expect(w.draws.length).toBe(before + 1 + 10);
  });

  it('says how fresh its prices are', () => {
    expect(unfocusedNote()).toBe('Not focused: prices every 1 s');
    expect(unfocusedNote(500)).toBe('Not focused: prices every 0.5 s');
  });
});
