import { describe, expect, it } from 'vitest';
import { priceLinesOf } from './candle-model';
import { draftLines, dropOf, lineAt, withModifying } from './chart-drag';

/** Chart trading's logic (docs/brackets.md §On the chart): grabbing a line, dropping it at a price. */

const order = (
  orderId: string,
  orderType: 'LIMIT' | 'SL' | 'SL-M',
  price: number | null,
  triggerPrice: number | null,
) => ({
  orderId,
  transactionType: 'BUY' as const,
  orderType,
  pendingQuantity: 10,
  price,
  triggerPrice,
});
const ORDERS = [order('1', 'LIMIT', 1450, null), order('2', 'SL', 1561, 1560), order('3', 'SL-M', null, 1570)];
const LINES = priceLinesOf(ORDERS, { quantity: 50, averagePrice: 1500 });
// 2 px a rupee, 1,600 at the top.
const toY = (p: number): number => (1600 - p) * 2;
const ctx = { orders: ORDERS, positionSide: 'BUY' as const, lastPrice: 1510, tickSize: 0.05 };
const line = (id: string) => LINES.find((l) => l.id === id)!;

describe('grabbing a line', () => {
  it('takes the nearest line within six pixels, and none further', () => {
    expect(lineAt(LINES, toY(1450) + 5, toY)?.id).toBe('1:price');
    expect(lineAt(LINES, toY(1450) + 7, toY)).toBeNull();
    // SL 1,560/1,561: two lines 2 px apart, the nearer wins.
    expect(lineAt(LINES, toY(1561) - 1, toY)?.id).toBe('2:price');
    expect(lineAt(LINES, toY(1500), toY)?.id).toBe('position');
  });

  it('never grabs a line being modified or an exit drawn and not placed', () => {
    const shown = [...withModifying(LINES, dropModify('1:price', 1460)), ...draftLines({ stop: 1480, target: null })];
    expect(lineAt(shown, toY(1460), toY)).toBeNull();
    expect(lineAt(shown, toY(1450), toY)).toBeNull();
    expect(lineAt(shown, toY(1480), toY)).toBeNull();
  });
});

function dropModify(id: string, price: number) {
  const d = dropOf(line(id), price, ctx);
  if (d?.t !== 'modify') throw new Error('not a modify');
  return d.modify;
}

describe('dropping a line', () => {
  it('a LIMIT moves its price, on the tick grid', () => {
    expect(dropOf(line('1:price'), 1460.02, ctx)).toEqual({
      t: 'modify',
      modify: { orderId: '1', lineId: '1:price', label: 'BUY 10 LMT', from: 1450, to: 1460, changes: { price: 1460 } },
    });
  });

  it('an SL moves trigger and limit together, from either line; an SL-M its trigger', () => {
    expect(dropModify('2:trigger', 1555).changes).toEqual({ triggerPrice: 1555, price: 1556 });
    expect(dropModify('2:price', 1566).changes).toEqual({ price: 1566, triggerPrice: 1565 });
    expect(dropModify('3:trigger', 1575.5).changes).toEqual({ triggerPrice: 1575.5 });
  });

  it('dropped where it was: nothing', () => {
    expect(dropOf(line('1:price'), 1450.01, ctx)).toBeNull();
  });

  it("the position's line: a stop-loss below the last price for a long, a target above; mirrored for a short", () => {
    expect(dropOf(line('position'), 1480, ctx)).toEqual({ t: 'exit', exit: { leg: 'stop', price: 1480 } });
    // Above the average but below the last price: still a stop-loss (one that locks in a profit).
    expect(dropOf(line('position'), 1505, ctx)).toEqual({ t: 'exit', exit: { leg: 'stop', price: 1505 } });
    expect(dropOf(line('position'), 1530, ctx)).toEqual({ t: 'exit', exit: { leg: 'target', price: 1530 } });
    const short = { ...ctx, positionSide: 'SELL' as const };
    expect(dropOf(line('position'), 1530, short)).toEqual({ t: 'exit', exit: { leg: 'stop', price: 1530 } });
    expect(dropOf(line('position'), 1480, short)).toEqual({ t: 'exit', exit: { leg: 'target', price: 1480 } });
    expect(dropOf(line('position'), 1480, { ...ctx, lastPrice: null })).toBeNull();
  });
});

describe('an order being modified', () => {
  it('shows its old price and its new one until the broker answers', () => {
    const shown = withModifying(LINES, dropModify('1:price', 1460));
    const was = shown.find((l) => l.id === '1:price:was');
    const to = shown.find((l) => l.id === '1:price:to');
    expect(was).toMatchObject({ price: 1450, kind: 'ghost', title: 'was BUY 10 LMT' });
    expect(to).toMatchObject({ price: 1460, kind: 'buy' });
    expect(to?.label).toBe('BUY 10 LMT at 1460 (was 1450) · modifying · order 1');
    expect(shown.filter((l) => l.id.startsWith('1:'))).toHaveLength(2);
    expect(shown.filter((l) => !l.id.startsWith('1:'))).toEqual(LINES.filter((l) => !l.id.startsWith('1:')));
  });
});
