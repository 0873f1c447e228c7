import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { VolumeProfile } from './volume-profile';

/** Volume at price from the stream's ticks (docs/ladder.md §Volume at price). */

const tick = (instrumentToken: number, lastPrice: number, volume: number): Tick => ({
  instrumentToken,
  lastPrice,
  volume,
  ts: '2026-11-27T04:00:00.000Z',
});

describe('volume at price', () => {
  it('puts the volume traded since the previous tick at this tick’s price, highest price first', () => {
    let now = 1_000;
    const v = new VolumeProfile(() => now);
    v.onTick(tick(1, 1500, 10_000)); // the first tick only sets where the day's volume stands
    now = 2_000;
    // Traded first at the middle price, then below it, then above: the order seen is not the order shown.
    v.onTick(tick(1, 1500, 10_040));
    v.onTick(tick(1, 1499.95, 10_070));
    v.onTick(tick(1, 1500.05, 10_100));
    v.onTick(tick(1, 1500, 10_125));
    v.onTick(tick(1, 1500, 10_125)); // nothing traded
    expect(v.of(1)).toEqual({
      since: 1_000,
      levels: [
        { price: 1500.05, volume: 30 },
        { price: 1500, volume: 65 },
        { price: 1499.95, volume: 30 },
      ],
    });
  });

  it('keeps instruments apart, and says nothing of one it never saw', () => {
    const v = new VolumeProfile(() => 0);
    v.onTick(tick(1, 100, 5));
    v.onTick(tick(2, 200, 7));
    v.onTick(tick(1, 100.5, 9));
    expect(v.of(1).levels).toEqual([{ price: 100.5, volume: 4 }]);
    expect(v.of(2).levels).toEqual([]);
    expect(v.of(3)).toEqual({ since: null, levels: [] });
  });

  it('starts again when the day’s volume falls (a new session)', () => {
    let now = 1;
    const v = new VolumeProfile(() => now);
    v.onTick(tick(1, 100, 500));
    v.onTick(tick(1, 101, 600));
    now = 9;
    v.onTick(tick(1, 102, 20)); // the next session's first tick
    v.onTick(tick(1, 103, 50));
    expect(v.of(1)).toEqual({ since: 9, levels: [{ price: 103, volume: 30 }] });
  });
});
