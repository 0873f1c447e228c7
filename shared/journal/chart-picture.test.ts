import { describe, expect, it } from 'vitest';
import { chartPicture } from './chart-picture';

/** The chart at a trade's exit (docs/journal.md §The chart at the exit). */

const at = (hhmm: string): number => Date.parse(`2026-11-23T${hhmm}:00+05:30`);
const candle = (hhmm: string, o: number, c: number) => ({
  ts: `2026-11-23T${hhmm}:00+05:30`,
  open: o,
  high: Math.max(o, c) + 1,
  low: Math.min(o, c) - 1,
  close: c,
  volume: 10,
});
const trade = {
  tradingsymbol: 'M&M<x>',
  direction: 'long' as const,
  entries: [{ fillId: 'a', orderId: 'o1', quantity: 1, price: 100, at: at('09:16'), carried: false }],
  exits: [{ fillId: 'b', orderId: 'o2', quantity: 1, price: 104, at: at('09:18'), carried: false }],
  exitAt: at('09:18'),
  net: 3.5,
};

describe('the chart picture', () => {
  it('draws the candles up to the exit, never after, with the entry and the exit marked', () => {
    const svg = chartPicture(
      [
        candle('09:15', 100, 101),
        candle('09:16', 101, 102),
        candle('09:17', 102, 104),
        candle('09:18', 104, 103),
        candle('09:19', 103, 90),
      ],
      trade,
    )!;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    // Four candles (a wick and a body each), not the fifth that came after the exit.
    expect(svg.match(/<rect x=/g)).toHaveLength(4);
    expect(svg).toContain('Entry B 1 @ 100.00');
    expect(svg).toContain('Exit S 1 @ 104.00');
    // The symbol is text, never markup; nothing in it can run.
    expect(svg).toContain('M&amp;M&lt;x&gt;');
    expect(svg).not.toMatch(/<script|on\w+=|href=/i);
  });

  it('keeps an entry and an exit on one candle apart: their own shapes, labels either side, fills at one price as one marker', () => {
    const quick = {
      ...trade,
      entries: [
        { fillId: 'a1', orderId: 'o1', quantity: 2, price: 101, at: at('09:16'), carried: false },
        { fillId: 'a2', orderId: 'o1', quantity: 3, price: 101, at: at('09:16'), carried: false },
      ],
      exits: [{ fillId: 'b', orderId: 'o2', quantity: 5, price: 101.5, at: at('09:16'), carried: false }],
      exitAt: at('09:16'),
    };
    const svg = chartPicture([candle('09:15', 100, 101), candle('09:16', 101, 102)], quick)!;
    const labels = [...svg.matchAll(/text-anchor="(\w+)"[^>]*data-kind="(\w+)">([^<]+)</g)].map((m) => [
      m[2],
      m[1],
      m[3],
    ]);
    expect(labels).toEqual([
      ['entry', 'end', 'Entry B 5 @ 101.00'],
      ['exit', 'start', 'Exit S 5 @ 101.50'],
    ]);
  });

  it('is nothing without candles', () => {
    expect(chartPicture([], trade)).toBeNull();
    expect(chartPicture([candle('09:19', 1, 2)], trade)).toBeNull();
  });
});
