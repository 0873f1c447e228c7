import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { settle, steppedClock } from '../testing/stepped-clock';
import { NotAdmitted, paceUnder, TokenBucket, type BucketClock } from './token-bucket';

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

describe('client token bucket', () => {
  it('lets a burst through at once, then paces at the rate in arrival order', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 3 }, clock);
    const admitted = await Promise.all(Array.from({ length: 6 }, () => bucket.take()));
    expect(admitted).toEqual([0, 0, 0, 100, 200, 300]);
  });

  it('never admits more than burst + rate·t requests in any window starting full', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 8, burst: 16 }, clock);
    const admitted = await Promise.all(Array.from({ length: 100 }, () => bucket.take()));
    for (const t of [0, 500, 1_000, 5_000]) {
      expect(admitted.filter((a) => a <= t).length).toBeLessThanOrEqual(16 + (8 * t) / 1000);
    }
  });

  it('a Retry-After pause holds back every caller until it has passed', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 }, clock);
    bucket.pause(1_000);
    expect(await bucket.take()).toBeGreaterThanOrEqual(1_000);
    expect(await bucket.take('urgent')).toBeGreaterThanOrEqual(1_000);
  });

  it("a read's pause holds back normal callers for its length but admits an urgent caller at once", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 }, clock);
    bucket.pause(30_000, 'normal');
    expect(bucket.waitFor('urgent')).toBe(0);
    expect(bucket.waitFor('normal')).toBe(30_000);
    const poll = bucket.take('normal');
    const askedAt = clock.t; // (the fake clock moves when the held poll's pump sleeps)
    expect(await bucket.take('urgent')).toBe(askedAt);
    expect(await poll).toBeGreaterThanOrEqual(30_000);
  });

  it('an urgent caller queued behind a paused poll is admitted at the refill rate, not at the end of the pause', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 1 }, clock);
    await bucket.take('urgent'); // spends the only token
    bucket.pause(30_000, 'normal');
    const poll = bucket.take('normal');
    const cancel = bucket.take('urgent');
    expect(await cancel).toBeLessThanOrEqual(100);
    expect(await poll).toBeGreaterThanOrEqual(30_000);
  });

  it('resized to a tighter published limit, keeps no more than the new burst and admits at the new rate', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 }, clock);
    bucket.resize({ perSecond: 2, burst: 2 });
    const admitted = await Promise.all(Array.from({ length: 4 }, () => bucket.take()));
    expect(admitted).toEqual([0, 0, 500, 1_000]);
  });

  it('paces a client at 80% of what the broker publishes: 10/s burst 20 → 8/s burst 16, never a burst under one', () => {
    expect(paceUnder({ perSecond: 10, burst: 20 })).toEqual({ perSecond: 8, burst: 16 });
    expect(paceUnder({ perSecond: 10, burst: 10 })).toEqual({ perSecond: 8, burst: 8 });
    expect(paceUnder({ perSecond: 1, burst: 1 })).toEqual({ perSecond: 0.8, burst: 1 });
  });

  it('refills up to the burst, not beyond', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 2 }, clock);
    clock.t += 60_000;
    const admitted = await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(admitted.map((a) => a - 60_000)).toEqual([0, 0, 100]);
  });

  it('an order action waits for the next token, not behind the polls already queued', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 1 }, clock);
    const order: string[] = [];
    const polls = Array.from({ length: 5 }, (_, i) => bucket.take('normal').then((t) => order.push(`poll${i}@${t}`)));
    const click = bucket.take('urgent').then((t) => order.push(`order@${t}`));
    await Promise.all([...polls, click]);
    // poll0 had the only token; the order takes the next one; the polls follow at the rate.
    expect(order).toEqual(['poll0@0', 'order@100', 'poll1@200', 'poll2@300', 'poll3@400', 'poll4@500']);
  });

  it('while polls keep the bucket drained, an order action still finds a token at once', async () => {
    const clock = steppedClock();
    // The paper broker's published 10/s burst 20, paced as the app paces it.
    const bucket = new TokenBucket(paceUnder({ perSecond: 10, burst: 20 }), clock);
    const polls = Array.from({ length: 60 }, () => bucket.take('normal'));
    // Three seconds into the queue of polls: each token has been going to a poll as it refilled.
    await clock.advance(3_000);
    let clickAdmittedAt: number | null = null;
    void bucket.take('urgent').then((t) => (clickAdmittedAt = t));
    await settle();
    expect(clickAdmittedAt).toBe(3_000);
    // The polls keep the rate, 8/s: after a burst of 12 (the 16 less the 4 kept for order
    // actions), the other 48 and the click's token take 49 / 8 s.
    await clock.advance(10_000);
    expect(Math.max(...(await Promise.all(polls)))).toBe(((60 - 12 + 1) / 8) * 1000);
  });

  it("a placement's 429 holds back the other order actions only: cancels and polls go on", async () => {
    const clock = steppedClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 }, clock);
    bucket.pause(30_000, 'urgent');
    expect(bucket.waitFor('cancel')).toBe(0);
    expect(bucket.waitFor('normal')).toBe(0);
    let placedAt: number | null = null;
    void bucket.take('urgent').then((t) => (placedAt = t));
    expect(await bucket.take('cancel')).toBe(0);
    expect(await bucket.take('normal')).toBe(0);
    await clock.advance(29_000);
    expect(placedAt).toBeNull();
    await clock.advance(1_100);
    expect(placedAt).toBeGreaterThanOrEqual(30_000);
  });

  it('a burst of placements leaves cancels their own tokens', async () => {
    const clock = steppedClock();
    // The paper broker's published 10/s burst 20, paced as the app paces it: 8/s, burst 16.
    const bucket = new TokenBucket(paceUnder({ perSecond: 10, burst: 20 }), clock);
    const placements = Array.from({ length: 30 }, () => bucket.take('urgent'));
    await settle();
    let cancelAt: number | null = null;
    void bucket.take('cancel').then((t) => (cancelAt = t));
    await settle();
    // 14 placements went at once (16 less the 2 kept for cancels); the cancel needs no refill.
    expect(cancelAt).toBe(0);
    await clock.advance(5_000);
    expect((await Promise.all(placements)).filter((t) => t === 0)).toHaveLength(14);
  });

  it('a caller who gives up leaves the queue without spending a token', async () => {
    const clock = steppedClock();
    const bucket = new TokenBucket({ perSecond: 10, burst: 1 }, clock);
    await bucket.take('urgent'); // the only token
    const giveUp = new AbortController();
    const late = bucket.take('urgent', giveUp.signal);
    const next = bucket.take('urgent');
    giveUp.abort();
    await expect(late).rejects.toBeInstanceOf(NotAdmitted);
    await clock.advance(100);
    // The next caller gets the token the one who gave up would have had.
    expect(await next).toBe(100);
    expect(bucket.waiting()).toBe(0);
    await expect(bucket.take('normal', AbortSignal.abort())).rejects.toBeInstanceOf(NotAdmitted);
  });

  it('an admitted caller leaves nothing on its signal: one signal can go with a thousand requests (a kill switch and its Stop)', async () => {
    const clock = steppedClock();
    const bucket = new TokenBucket({ perSecond: 100, burst: 1 }, clock);
    const stop = new AbortController();
    const taken = Array.from({ length: 50 }, () => bucket.take('cancel', stop.signal));
    expect(getEventListeners(stop.signal, 'abort').length).toBe(49);
    await clock.advance(1_000);
    await Promise.all(taken);
    expect(getEventListeners(stop.signal, 'abort')).toEqual([]);
  });
});

describe('cancels at the broker’s published rate, everything else at the paced one', () => {
  it('a kill switch’s cancels go at the published 10 a second after the burst, polls and placements at 8', async () => {
    const cancelClock = fakeClock();
    const forCancels = new TokenBucket({ perSecond: 8, burst: 16 }, cancelClock, { cancelsPerSecond: 10 });
    const cancels = await Promise.all(Array.from({ length: 116 }, () => forCancels.take('cancel')));
    // The burst of 16 at once, then one every 100 ms: 100 more in the next 10 s.
    expect(cancels.filter((t) => t === 0)).toHaveLength(16);
    expect(cancels.at(-1)).toBe(10_000);

    const pollClock = fakeClock();
    const forPolls = new TokenBucket({ perSecond: 8, burst: 16 }, pollClock, { cancelsPerSecond: 10 });
    const polls = await Promise.all(Array.from({ length: 100 }, () => forPolls.take('normal')));
    // Never more than the paced rate allows after the burst (a poll spends 1.25 of the tokens).
    for (const t of [1_000, 5_000, 10_000]) {
      expect(polls.filter((a) => a <= t).length).toBeLessThanOrEqual(16 + (8 * t) / 1000);
    }
  });

  it('all lanes together never exceed the published rate after the burst', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 8, burst: 16 }, clock, { cancelsPerSecond: 10 });
    const lanes = ['cancel', 'urgent', 'normal'] as const;
    const admitted = await Promise.all(Array.from({ length: 150 }, (_, i) => bucket.take(lanes[i % 3])));
    for (const t of [0, 1_000, 5_000, 10_000]) {
      expect(admitted.filter((a) => a <= t).length).toBeLessThanOrEqual(16 + (10 * t) / 1000);
    }
  });

  it('a burst of one still admits a poll (it never costs more than the bucket holds)', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ perSecond: 0.8, burst: 1 }, clock, { cancelsPerSecond: 1 });
    expect(await bucket.take('normal')).toBe(0);
    expect(await bucket.take('normal')).toBeGreaterThan(0);
  });
});
