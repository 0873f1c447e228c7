import { describe, expect, it } from 'vitest';
import { RttEstimator } from './rtt-estimator';

const bounds = { minMs: 300, maxMs: 5_000, initialMs: 1_000 };

describe('adaptive reply timeout (RFC 6298)', () => {
  it('waits the initial 1 s before anything is measured', () => {
    expect(new RttEstimator(bounds).timeoutMs()).toBe(1_000);
  });

  it('settles on its 300 ms floor when the broker answers in about a millisecond', () => {
    const rtt = new RttEstimator(bounds);
    for (let i = 0; i < 20; i += 1) rtt.sample(1 + (i % 3));
    expect(rtt.timeoutMs()).toBe(300);
  });

  it('follows a broker that answers in ~800 ms with jitter, giving it more than its slowest replies', () => {
    const rtt = new RttEstimator(bounds);
    const replies = [700, 900, 750, 850, 800, 950, 700, 800];
    for (const ms of replies) rtt.sample(ms);
    expect(rtt.timeoutMs()).toBeGreaterThan(Math.max(...replies));
    expect(rtt.timeoutMs()).toBeLessThanOrEqual(5_000);
  });

  it('doubles after a timeout, once for requests sent under the old value, up to 5 s', () => {
    const rtt = new RttEstimator(bounds);
    for (let i = 0; i < 10; i += 1) rtt.sample(2);
    expect(rtt.timeoutMs()).toBe(300);
    // Three requests sent at t=0 all time out at t=300: one back-off, not three.
    rtt.timedOut(0, 300);
    rtt.timedOut(0, 301);
    rtt.timedOut(0, 302);
    expect(rtt.timeoutMs()).toBe(600);
    // A request sent after that back-off timing out too: the broker really is slower.
    for (let t = 400; t < 10_000; t += 1_000) rtt.timedOut(t, t + 600);
    expect(rtt.timeoutMs()).toBe(5_000);
    // One reply that did arrive brings it back to what was measured.
    rtt.sample(2);
    expect(rtt.timeoutMs()).toBe(300);
  });
});
