import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { createQuotesStore } from './quotes-store';

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
