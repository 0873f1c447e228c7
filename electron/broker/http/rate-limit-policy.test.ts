import { describe, expect, it } from 'vitest';
import { parseRateLimitPolicy } from './rate-limit-policy';

describe('parseRateLimitPolicy', () => {
  it('reads the paper broker’s two policies as token buckets: 10/s burst 20, and orders 10/s burst 10', () => {
    const p = parseRateLimitPolicy('"default";q=20;w=2, "orders";q=10;w=1');
    expect(p.get('default')).toEqual({ perSecond: 10, burst: 20 });
    expect(p.get('orders')).toEqual({ perSecond: 10, burst: 10 });
  });

  it('accepts a bare token name and extra parameters, and skips items without a usable quota or window', () => {
    const p = parseRateLimitPolicy('day;q=1000;w=86400;pk=:YWJj:, "bad";q=0;w=1, "nowin";q=5, junk');
    expect([...p.keys()]).toEqual(['day']);
    expect(p.get('day')?.burst).toBe(1000);
  });

  it('reads nothing from a missing or empty header', () => {
    expect(parseRateLimitPolicy(undefined).size).toBe(0);
    expect(parseRateLimitPolicy('').size).toBe(0);
  });
});
