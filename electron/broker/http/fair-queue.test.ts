import { describe, expect, it } from 'vitest';
import { runAsCaller } from './caller-context';
import { FairQueue } from './fair-queue';
import { TokenBucket, type BucketClock } from './token-bucket';

/** A clock that only moves when told: sleeps advance it, so waits are counted, not waited. */
function fakeClock(): BucketClock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

describe('fair queue', () => {
  it('serves account data before bulk data, and takes turns between callers within a class', () => {
    const q = new FairQueue<string>();
    for (let i = 1; i <= 3; i++) q.push(`A-candles-${i}`, { caller: 'A', cls: 'bulk' });
    for (let i = 1; i <= 3; i++) q.push(`A-orders-${i}`, { caller: 'A', cls: 'account' });
    q.push('B-funds', { caller: 'B', cls: 'account' });
    q.push('B-candles', { caller: 'B', cls: 'bulk' });
    const order: string[] = [];
    while (q.length > 0) order.push(q.shift() as string);
    expect(order).toEqual([
      'A-orders-1',
      'B-funds',
      'A-orders-2',
      'A-orders-3',
      'A-candles-1',
      'B-candles',
      'A-candles-2',
      'A-candles-3',
    ]);
  });
});

describe('client token bucket with fair queuing', () => {
  it("one page's 300 candle requests do not hold back another page's funds: it is admitted next", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 8, burst: 1 }, clock);
    const admitted: Array<{ who: string; at: number }> = [];
    const pageA = Array.from({ length: 300 }, (_, i) =>
      runAsCaller({ caller: 'page-A', cls: 'bulk' }, () => bucket.take()).then((at) =>
        admitted.push({ who: `A${i}`, at }),
      ),
    );
    const funds = runAsCaller({ caller: 'page-B', cls: 'account' }, () => bucket.take()).then((at) =>
      admitted.push({ who: 'B-funds', at }),
    );
    await Promise.all([...pageA, funds]);
    // The first candle request took the one token there was; the funds go next, 125 ms later,
    // not after the other 299 (37 s at 8/s).
    expect(admitted.slice(0, 3).map((a) => a.who)).toEqual(['A0', 'B-funds', 'A1']);
    expect(admitted[1]!.at).toBe(125);
  });

  it('two pages asking for the same class take turns instead of first come, first served', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 1 }, clock);
    const order: string[] = [];
    const a = Array.from({ length: 50 }, (_, i) =>
      runAsCaller({ caller: 'A', cls: 'account' }, () => bucket.take()).then(() => order.push(`A${i}`)),
    );
    const b = Array.from({ length: 3 }, (_, i) =>
      runAsCaller({ caller: 'B', cls: 'account' }, () => bucket.take()).then(() => order.push(`B${i}`)),
    );
    await Promise.all([...a, ...b]);
    expect(order.slice(0, 7)).toEqual(['A0', 'A1', 'B0', 'A2', 'B1', 'A3', 'B2']);
  });
});
