import { describe, expect, it } from 'vitest';
import type { JournalTrade } from '../domain/journal';
import { aClosedTrade } from '../testing/journal-fixtures';
import { dayTotals, equityCurve, monthGrid, rMultiple, statsBy, tradeStats } from './stats';

/**
 * The journal's figures (docs/journal.md §Statistics) on a small set of trades whose answers are
 * worked by hand in the comments.
 */

const at = (ist: string): number => Date.parse(`${ist}+05:30`);

let n = 0;
function trade(net: number, exit: string, over: Partial<JournalTrade> = {}): JournalTrade {
  n++;
  return aClosedTrade({
    id: `NSE:INFY:MIS:o${n}`,
    entryPrice: 100,
    exitPrice: 100 + net / 10,
    entryAt: at(exit) - 30 * 60_000,
    exitAt: at(exit),
    holdingMs: 30 * 60_000,
    pnl: net,
    net,
    ...over,
  });
}

describe('statistics', () => {
  // Equity after each: +300, +200, +600, +100, +50, +250. Peak 600, trough after it 50: drawdown 550.
  const trades = [
    trade(300, '2026-11-23T10:00:00'),
    trade(-100, '2026-11-23T11:00:00'),
    trade(400, '2026-11-24T10:00:00'),
    trade(-500, '2026-11-24T14:00:00'),
    trade(-50, '2026-11-25T10:00:00'),
    trade(200, '2026-11-25T15:00:00'),
  ];

  it('win rate, average win and loss, expectancy, profit factor and maximum drawdown', () => {
    expect(tradeStats(trades)).toEqual({
      trades: 6,
      wins: 3,
      losses: 3,
      winRate: 0.5,
      averageWin: 300, // (300 + 400 + 200) / 3
      averageLoss: expect.closeTo(-650 / 3, 9), // (−100 − 500 − 50) / 3
      expectancy: 250 / 6, // net 250 over six trades
      profitFactor: 900 / 650,
      maxDrawdown: 550,
      net: 250,
    });
    expect(tradeStats([])).toMatchObject({
      trades: 0,
      winRate: null,
      expectancy: null,
      profitFactor: null,
      maxDrawdown: 0,
    });
    // Only winners: nothing to divide the profit factor by.
    expect(tradeStats([trade(10, '2026-11-23T10:00:00')]).profitFactor).toBeNull();
  });

  it('the equity curve and the calendar’s days, by the IST day of the exit', () => {
    expect(equityCurve(trades).map((p) => p.equity)).toEqual([300, 200, 600, 100, 50, 250]);
    const days = dayTotals(trades);
    expect([...days.values()]).toEqual([
      { date: '2026-11-23', trades: 2, net: 200 },
      { date: '2026-11-24', trades: 2, net: -100 },
      { date: '2026-11-25', trades: 2, net: 150 },
    ]);
    // 00:30 IST on the 26th is still the 25th in UTC: the calendar goes by IST.
    expect([...dayTotals([trade(5, '2026-11-26T00:30:00')]).keys()]).toEqual(['2026-11-26']);
  });

  it('a month laid out in weeks from Monday with its total', () => {
    const grid = monthGrid('2026-11', dayTotals(trades));
    // 1 Nov 2026 is a Sunday: six blanks before it.
    expect(grid.weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(grid.weeks.at(-1)?.[0]).toBe('2026-11-30');
    expect(grid.weeks.every((w) => w.length === 7)).toBe(true);
    expect([grid.net, grid.trades]).toEqual([250, 6]);
  });

  it('by tag (a trade under each of its tags), by weekday of the entry, by hour of the entry', () => {
    const tagged = [
      trade(100, '2026-11-23T09:45:00', { notes: { tags: ['breakout', 'nifty'], note: '', stopLoss: null } }),
      trade(-40, '2026-11-24T13:10:00', { notes: { tags: ['breakout'], note: '', stopLoss: null } }),
      trade(25, '2026-11-24T13:50:00'),
    ];
    expect(statsBy(tagged, 'tag').map((g) => [g.group, g.stats.trades, g.stats.net])).toEqual([
      ['nifty', 1, 100],
      ['breakout', 2, 60],
      ['Untagged', 1, 25],
    ]);
    expect(statsBy(tagged, 'weekday').map((g) => [g.group, g.stats.trades])).toEqual([
      ['Monday', 1],
      ['Tuesday', 2],
    ]);
    // Entries 30 minutes before the exits: 09:15, 12:40 and 13:20.
    expect(statsBy(tagged, 'hour').map((g) => g.group)).toEqual(['09:00–10:00', '12:00–13:00', '13:00–14:00']);
  });

  it('the R multiple is the P&L over the risk to the stop, only with a stop on the losing side', () => {
    const long = { direction: 'long' as const, entryPrice: 100, quantity: 10, multiplier: 1, pnl: 150 };
    expect(rMultiple(long, 95)).toBe(3); // risked 5 × 10 = 50, made 150
    expect(rMultiple({ ...long, pnl: -50 }, 95)).toBe(-1);
    expect(rMultiple({ ...long, direction: 'short' }, 110)).toBe(1.5);
    expect(rMultiple(long, 105)).toBeNull();
    expect(rMultiple(long, null)).toBeNull();
  });
});
