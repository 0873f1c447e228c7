import { describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, isEventName, isRequestChannel, requests } from './contract';
import { EVENT_NAMES_PLAIN } from './channel-names';
import { INFY_MARKET_BUY } from '../testing/order-fixtures';

describe('bridge contract', () => {
  it("keeps the preload's event allowlist identical to the contract's events", () => {
    expect([...EVENT_NAMES_PLAIN].sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('does not treat inherited object keys as channels', () => {
    expect(isRequestChannel('toString')).toBe(false);
    expect(isRequestChannel('__proto__')).toBe(false);
    expect(isEventName('constructor')).toBe(false);
    expect(isRequestChannel('orders.place')).toBe(true);
  });
});

describe('bridge inputs that would reach a broker path or a timeline', () => {
  it.each(['..', '.', 'a/b', '%2e%2e', '../session', ' 1'])(
    'orders.cancel, orders.get and orders.history refuse order id %j, naming orderId',
    (orderId) => {
      for (const channel of ['orders.cancel', 'orders.get', 'orders.history'] as const) {
        const r = requests[channel].input.safeParse({ orderId });
        expect(r.success).toBe(false);
        expect(r.error?.issues[0]?.path).toEqual(['orderId']);
      }
      expect(requests['orders.modify'].input.safeParse({ orderId, changes: { quantity: 1 } }).success).toBe(false);
    },
  );

  it('accepts order ids as brokers spell them', () => {
    for (const orderId of ['260000000012', '1914227164488687616', 'ord_AB-12']) {
      expect(requests['orders.cancel'].input.safeParse({ orderId }).success).toBe(true);
    }
  });

  it('orders.place refuses a clickedAt more than a minute after now, naming clickedAt', () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00+05:30') });
    try {
      const at = (clickedAt: number) => requests['orders.place'].input.safeParse({ order: INFY_MARKET_BUY, clickedAt });
      expect(at(Date.now()).success).toBe(true);
      expect(at(Date.now() + 30_000).success).toBe(true);
      const far = at(8_640_000_000_000_000);
      expect(far.success).toBe(false);
      expect(far.error?.issues[0]?.path).toEqual(['clickedAt']);
      expect(at(Date.now() + 61_000).success).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('every placing channel reads the click the same way: a future clickedAt, a bad requestId or a riskOverride other than true is refused naming it', () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00+05:30') });
    try {
      const bracket = {
        kind: 'entry',
        entry: INFY_MARKET_BUY,
        stop: { triggerPrice: 1400 },
        target: null,
        trail: null,
      };
      const calls = [
        (extra: object) => requests['orders.place'].input.safeParse({ order: INFY_MARKET_BUY, ...extra }),
        (extra: object) => requests['brackets.place'].input.safeParse({ request: bracket, ...extra }),
      ];
      for (const call of calls) {
        expect(call({ requestId: 'click-0001', clickedAt: Date.now(), riskOverride: true }).success).toBe(true);
        for (const [field, value] of [
          ['clickedAt', Date.now() + 61_000],
          ['requestId', ''],
          ['riskOverride', false],
        ] as const) {
          const r = call({ [field]: value });
          expect(r.success).toBe(false);
          expect(r.error?.issues[0]?.path).toEqual([field]);
        }
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
