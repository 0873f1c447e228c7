import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '@shared/domain/order';
import { LifecycleTimeline } from './lifecycle-timeline';

const T0 = Date.parse('2026-11-23T10:00:00.000+05:30');
const event = (status: OrderEvent['status'], at: string): OrderEvent => ({
  status,
  at,
  filledQuantity: 0,
  averagePrice: 0,
  message: null,
});

describe('LifecycleTimeline', () => {
  it('lays out click → journaled → sent → acknowledged → each broker status with when main heard of it, gaps on each clock', () => {
    const t = new LifecycleTimeline();
    t.record('c1', 'clicked', T0);
    t.record('c1', 'journaled', T0 + 3);
    t.record('c1', 'sent', T0 + 5);
    t.record('c1', 'acknowledged', T0 + 40);
    t.link('c1', 'o1');
    t.observe('o1', 'OPEN', T0 + 42);
    t.observe('o1', 'OPEN', T0 + 43); // a repeat (modification) is not a new hop
    t.observe('o1', 'COMPLETE', T0 + 2_050);
    const hops = t.timeline('o1', [
      event('OPEN', '2026-11-23T10:00:00+05:30'),
      event('COMPLETE', '2026-11-23T10:00:02+05:30'),
    ]);
    expect(hops.map((h) => [h.hop, h.source, h.gapMs])).toEqual([
      ['clicked', 'app', null],
      ['journaled', 'app', 3],
      ['sent', 'app', 2],
      ['acknowledged', 'app', 35],
      ['open', 'broker', null],
      ['open seen on stream', 'app', 2],
      ['complete', 'broker', 2_000],
      ['complete seen on stream', 'app', 2_008],
    ]);
    expect(hops[0]!.at).toBe('2026-11-23T10:00:00.000+05:30');
  });

  it('shows the broker history alone for an order placed elsewhere', () => {
    const hops = new LifecycleTimeline().timeline('x', [
      event('OPEN', '2026-11-23T10:00:00+05:30'),
      event('CANCELLED', '2026-11-23T10:00:09+05:30'),
    ]);
    expect(hops.map((h) => [h.hop, h.gapMs])).toEqual([
      ['open', null],
      ['cancelled', 9_000],
    ]);
  });
});
