import { describe, expect, it } from 'vitest';
import { MAX_DRAWINGS, NO_DRAWINGS, withLine, without, withTrend } from './drawings-model';

describe('drawings on an instrument’s chart', () => {
  it('puts a horizontal line on the tick under the click, once per price', () => {
    const d = withLine(NO_DRAWINGS, 870.5321, 0.05);
    expect(d.lines).toEqual([{ id: 'h1', price: 870.55 }]);
    expect(withLine(d, 870.54, 0.05)).toBe(d);
  });

  it('draws a trend line from the earlier point whichever is clicked first, and none on one bar', () => {
    const d = withTrend(NO_DRAWINGS, { time: 200, price: 101.03 }, { time: 100, price: 99.98 }, 0.05);
    expect(d.trends).toEqual([{ id: 't1', from: { time: 100, price: 100 }, to: { time: 200, price: 101.05 } }]);
    expect(withTrend(NO_DRAWINGS, { time: 5, price: 1 }, { time: 5, price: 2 }, 0.05)).toBe(NO_DRAWINGS);
  });

  it('removes one by id and keeps the newest when there are too many', () => {
    let d = NO_DRAWINGS;
    for (let i = 1; i <= MAX_DRAWINGS + 2; i += 1) d = withLine(d, i, 0.05);
    expect(d.lines).toHaveLength(MAX_DRAWINGS);
    expect(d.lines[0]?.price).toBe(3);
    const first = d.lines[0]!.id;
    expect(without(d, first).lines.some((l) => l.id === first)).toBe(false);
  });
});
