import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KiteGttList, kiteGttField, sameAsked, toGtt } from './kite-gtt';

/** Kite's GTT replies (Zerodha's own fixtures) read by the Kite adapter (docs/kite.md §GTT). */

const fixture = KiteGttList.parse(
  JSON.parse(readFileSync(join(__dirname, '../../paper/kite/fixtures/gtt_get_orders.json'), 'utf8')),
);

describe("the Kite adapter's GTT mapping", () => {
  it("reads Kite's fixture: an active single, and a triggered two-leg whose fired leg failed as REJECTED", () => {
    const [single, twoLeg] = fixture.data.map(toGtt);
    expect(single).toMatchObject({
      gttId: '112127',
      type: 'single',
      status: 'active',
      triggerValues: [702],
      lastPriceAtCreation: 798,
      createdAt: '2019-09-12T13:25:16+05:30',
      legs: [{ transactionType: 'BUY', quantity: 1, product: 'CNC', price: 702.5, orderId: null, orderStatus: null }],
    });
    expect(twoLeg).toMatchObject({ gttId: '105099', type: 'oco', status: 'triggered', triggerValues: [102, 103.7] });
    expect(twoLeg?.legs.map((l) => l.orderStatus)).toEqual([null, 'REJECTED']);
  });

  it('a status or product the app does not know makes the row unreadable (null), never a guess', () => {
    const row = fixture.data[0]!;
    expect(toGtt({ ...row, status: 'paused' })).toBeNull();
    expect(toGtt({ ...row, orders: [{ ...row.orders[0]!, product: 'MTF' }] })).toBeNull();
  });

  it('an ambiguous create is matched only by an active GTT asking exactly the same', () => {
    const g = toGtt(fixture.data[0]!)!;
    const cmd = {
      type: 'single' as const,
      exchange: 'NSE' as const,
      tradingsymbol: 'INFY',
      triggerValues: [702],
      legs: [{ transactionType: 'BUY' as const, quantity: 1, product: 'CNC' as const, price: 702.5 }],
      clientGttId: 'gtt-x',
      lastPrice: 798,
    };
    expect(sameAsked(g, cmd)).toBe(true);
    expect(sameAsked(g, { ...cmd, triggerValues: [703] })).toBe(false);
    expect(sameAsked({ ...g, status: 'cancelled' }, cmd)).toBe(false);
  });

  it("names the field of a refusal in the app's spelling", () => {
    expect(kiteGttField('condition.trigger_values.1: The target trigger …')).toBe('triggerValues.1');
    expect(kiteGttField('orders.0.trigger_price: …')).toBe('legs.0.triggerPrice');
    expect(kiteGttField('Invalid `price`')).toBeUndefined();
  });
});
