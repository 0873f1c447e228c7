import { describe, expect, it } from 'vitest';
import type { JournalFill } from '../domain/journal';
import { estimateCharges } from '../trading/charges';
import { matchFifo } from './fifo';

/**
 * FIFO matching as a table (docs/journal.md §What a trade is): each row is a day's fills of one
 * instrument and product — `B 100@10` buys 100 at ₹10, `S` sells — with the trades it closes
 * (direction, quantity, entry and exit average, gross P&L), oldest exit first, and what is left
 * open (signed quantity, average price).
 */

const T0 = Date.parse('2026-11-23T09:20:00+05:30');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let seq = 0;
/** `B 100@10 o1 +5` — side, quantity@price, order id (default: its own), minutes after T0. */
function fill(spec: string, over: Partial<JournalFill> = {}): JournalFill {
  const m = /^([BS]) (\d+)@([\d.]+)(?: (o\w+))?(?: \+(\d+))?$/.exec(spec);
  if (!m) throw new Error(`bad fill ${spec}`);
  seq++;
  return {
    fillId: `f${seq}`,
    orderId: m[4] ?? `o${seq}`,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    product: 'MIS',
    side: m[1] === 'B' ? 'BUY' : 'SELL',
    quantity: Number(m[2]),
    price: Number(m[3]),
    multiplier: 1,
    filledAt: T0 + Number(m[5] ?? seq) * MIN,
    source: 'broker',
    ...over,
  };
}

type Row = readonly [
  string,
  () => JournalFill[],
  ReadonlyArray<readonly ['long' | 'short', number, number, number, number]>,
  ReadonlyArray<readonly [number, number]>,
];

const TABLE: readonly Row[] = [
  ['a round trip', () => [fill('B 100@10'), fill('S 100@12')], [['long', 100, 10, 12, 200]], []],
  ['a short round trip', () => [fill('S 50@20'), fill('B 50@18')], [['short', 50, 20, 18, 100]], []],
  [
    'partial exits: each exit order is a trade, the oldest lot closed first',
    () => [fill('B 100@10'), fill('B 100@11'), fill('S 150@12'), fill('S 50@9')],
    [
      ['long', 150, (100 * 10 + 50 * 11) / 150, 12, 100 * 2 + 50 * 1],
      ['long', 50, 11, 9, -100],
    ],
    [],
  ],
  [
    'an exit order filled in parts is one trade',
    () => [fill('B 100@10'), fill('S 60@12 oX +10'), fill('S 40@13 oX +11')],
    [['long', 100, 10, 12.4, 60 * 2 + 40 * 3]],
    [],
  ],
  [
    'a partial exit leaves the rest open',
    () => [fill('B 100@10'), fill('S 30@12')],
    [['long', 30, 10, 12, 60]],
    [[70, 10]],
  ],
  [
    'a reversal closes the long and opens a short with the rest',
    () => [fill('B 100@10'), fill('S 150@12'), fill('B 50@11')],
    [
      ['long', 100, 10, 12, 200],
      ['short', 50, 12, 11, 50],
    ],
    [],
  ],
  ['a reversal left open', () => [fill('S 40@100'), fill('B 100@90')], [['short', 40, 100, 90, 400]], [[60, 90]]],
  [
    'a position carried over a night is closed by the next day',
    () => [fill('B 100@10', { filledAt: T0 - DAY }), fill('S 100@15')],
    [['long', 100, 10, 15, 500]],
    [],
  ],
  [
    'a carried-in lot (no fill of its own) closes like any other',
    () => [fill('B 75@200', { filledAt: T0 - 1, source: 'carried', fillId: 'carried:x' }), fill('S 75@210')],
    [['long', 75, 200, 210, 750]],
    [],
  ],
  [
    'a multiplier scales the P&L (MCX GOLD: ₹100 a point per unit)',
    () => [
      fill('B 1@70000', { exchange: 'MCX', multiplier: 100 }),
      fill('S 1@70100', { exchange: 'MCX', multiplier: 100 }),
    ],
    [['long', 1, 70000, 70100, 10_000]],
    [],
  ],
];

describe('FIFO matching', () => {
  it.each(TABLE)('%s', (_name, fills, trades, open) => {
    const result = matchFifo(fills());
    expect(result.trades.map((t) => [t.direction, t.quantity, t.entryPrice, t.exitPrice, t.pnl]).reverse()).toEqual(
      trades.map(([d, q, e, x, p]) => [d, q, expect.closeTo(e, 9), expect.closeTo(x, 9), expect.closeTo(p, 6)]),
    );
    expect(result.open.map((o) => [o.quantity, o.averagePrice])).toEqual(
      open.map(([q, a]) => [q, expect.closeTo(a, 9)]),
    );
  });

  it('keeps instruments and products apart', () => {
    const { trades, open } = matchFifo([
      fill('B 10@100'),
      fill('S 10@101', { tradingsymbol: 'TCS' }),
      fill('S 10@102', { product: 'CNC' }),
    ]);
    expect(trades).toEqual([]);
    expect(open.map((o) => `${o.tradingsymbol}/${o.product} ${o.quantity}`).sort()).toEqual([
      'INFY/CNC -10',
      'INFY/MIS 10',
      'TCS/MIS -10',
    ]);
  });

  it('a trade carries its holding time, its charges shared by quantity and its net', () => {
    const buy = fill('B 100@1500 oB +0');
    const sell1 = fill('S 40@1510 oS1 +30');
    const sell2 = fill('S 60@1490 oS2 +90');
    const { trades } = matchFifo([buy, sell1, sell2]);
    const first = trades.find((t) => t.id.endsWith(':oS1'))!;
    expect(first.holdingMs).toBe(30 * MIN);
    expect(first.entryAt).toBe(buy.filledAt);
    // 40 of the buy order's 100 units, and all of the first sell order.
    const charge = (f: JournalFill) => estimateCharges([{ ...f, transactionType: f.side }]).total;
    expect(first.charges).toBeCloseTo(0.4 * charge(buy) + charge(sell1), 9);
    expect(first.net).toBeCloseTo(first.pnl - first.charges, 9);
    expect(first.id).toBe('NSE:INFY:MIS:oS1');
    // Newest exit first.
    expect(trades.map((t) => t.id)).toEqual(['NSE:INFY:MIS:oS2', 'NSE:INFY:MIS:oS1']);
  });
});
