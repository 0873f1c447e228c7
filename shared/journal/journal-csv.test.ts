import { describe, expect, it } from 'vitest';
import { parseCsv } from '../lib/csv';
import { aClosedTrade } from '../testing/journal-fixtures';
import { journalCsv, parseConsoleTradebook } from './journal-csv';

/**
 * The journal's CSV both ways (docs/journal.md §Import and export): Console tradebook rows as
 * Zerodha writes them (the header and row shapes of a real export: lower-case buy/sell,
 * six-decimal quantities and prices, IST times without an offset, F&O with an expiry_date column)
 * and closed trades out.
 */

const HEADER =
  'symbol,isin,trade_date,exchange,segment,series,trade_type,auction,quantity,price,trade_id,order_id,order_execution_time';

describe('a Console tradebook', () => {
  it('reads equity and F&O fills: exchange from exchange and segment, IST times, the product chosen for equity', () => {
    const csv = [
      `${HEADER},expiry_date`,
      'INFY,INE009A01021,2026-11-23,NSE,EQ,EQ,buy,false,10.000000,1500.500000,T1,O1,2026-11-23T09:22:30,',
      'NIFTY26D0126000CE,,2026-11-23,NSE,FO,,sell,false,75.000000,188.050000,T2,O2,2026-11-23T10:01:05,2026-12-01',
      'SENSEX26D0485000PE,,2026-11-23,BSE,FO,,buy,false,20.000000,310.000000,T3,O3,2026-11-23T11:00:00,2026-12-04',
      '',
    ].join('\n');
    const { fills, rejected } = parseConsoleTradebook(csv, { equityProduct: 'MIS' });
    expect(rejected).toEqual([]);
    expect(fills).toEqual([
      {
        fillId: 'NSE:T1',
        orderId: 'O1',
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        product: 'MIS',
        side: 'BUY',
        quantity: 10,
        price: 1500.5,
        filledAt: Date.parse('2026-11-23T09:22:30+05:30'),
        source: 'csv',
      },
      expect.objectContaining({
        fillId: 'NFO:T2',
        exchange: 'NFO',
        product: 'NRML',
        side: 'SELL',
        quantity: 75,
        price: 188.05,
      }),
      expect.objectContaining({ fillId: 'BFO:T3', exchange: 'BFO', product: 'NRML' }),
    ]);
  });

  it('names each line it cannot read and why, and keeps the rest', () => {
    const csv = [
      HEADER,
      'INFY,,2026-11-23,NSE,EQ,EQ,hold,false,10,1500,T1,O1,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1.5,1500,T2,O2,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NYSE,EQ,EQ,buy,false,1,1500,T3,O3,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1,1500,T4,O4,yesterday',
      'TCS,,2026-11-23,BSE,EQ,A,sell,false,3,3900.25,T5,O5,2026-11-23T11:15:53',
    ].join('\r\n');
    const { fills, rejected } = parseConsoleTradebook(csv, { equityProduct: 'CNC' });
    expect(fills.map((f) => [f.fillId, f.product])).toEqual([['BSE:T5', 'CNC']]);
    expect(rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(rejected[0]?.message).toMatch(/trade_type must be buy or sell/);
    expect(rejected[1]?.message).toMatch(/quantity must be a whole number/);
    expect(rejected[2]?.message).toMatch(/exchange NYSE/);
    expect(rejected[3]?.message).toMatch(/order_execution_time/);
  });

  it('takes numbers only as Console writes them and within bounds: an exponent, an unsafe integer, a price past the cap or finer than ₹0.0001 is named by line and column', () => {
    const csv = [
      HEADER,
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,9007199254740993,1500,T1,O1,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1e3,1500,T2,O2,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1,1e308,T3,O3,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1,-5,T4,O4,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1,20000000000,T5,O5,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,1,1500.000051,T6,O6,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,0,1500,T7,O7,2026-11-23T09:22:30',
      'INFY,,2026-11-23,NSE,EQ,EQ,buy,false,4.000000,1500.500000,T8,O8,2026-11-23T09:22:30',
    ].join('\n');
    const { fills, lines, rejected } = parseConsoleTradebook(csv, { equityProduct: 'MIS' });
    expect(rejected.map((r) => [r.line, r.field])).toEqual([
      [2, 'quantity'],
      [3, 'quantity'],
      [4, 'price'],
      [5, 'price'],
      [6, 'price'],
      [7, 'price'],
      [8, 'quantity'],
    ]);
    expect(rejected[0]?.message).toMatch(/quantity must be from 1 to 10,00,00,000/);
    expect(rejected[1]?.message).toMatch(/quantity must be a whole number written in digits, not "1e3"/);
    expect(rejected[2]?.message).toMatch(/price must be a number written in digits, not "1e308"/);
    expect(rejected[4]?.message).toMatch(/price must be at most/);
    expect(fills.map((f) => [f.quantity, f.price])).toEqual([[4, 1500.5]]);
    expect(lines).toEqual([9]);
  });

  it('refuses a file that is not a tradebook, naming what is missing', () => {
    expect(parseConsoleTradebook('a,b\n1,2', { equityProduct: 'CNC' }).rejected[0]?.message).toMatch(
      /no trade_id column/,
    );
    expect(parseConsoleTradebook('symbol,trade_id\nX,1', { equityProduct: 'CNC' }).rejected[0]?.message).toMatch(
      /no exchange, segment, trade_type, quantity, price, order_id column/,
    );
  });
});

describe('closed trades out', () => {
  it('one line per trade, oldest exit first, with its notes; text that could run as a formula is defused', () => {
    const base = aClosedTrade({
      id: 'NSE:INFY:MIS:o2',
      charges: 12.345,
      net: 87.655,
      notes: { tags: ['breakout', 'gap up'], note: '=SUM(1)', stopLoss: 1495 },
      stopSource: 'trader',
      rMultiple: 2,
      hasPicture: true,
    });
    const older = {
      ...base,
      id: 'NSE:INFY:MIS:o1',
      exitAt: base.exitAt - 3_600_000,
      notes: { tags: [], note: '', stopLoss: null },
    };
    const rows = parseCsv(journalCsv([base, older]));
    expect(rows[0]).toEqual([
      'trade_id',
      'exchange',
      'tradingsymbol',
      'product',
      'direction',
      'quantity',
      'entry_time',
      'exit_time',
      'entry_price',
      'exit_price',
      'holding_minutes',
      'pnl',
      'charges',
      'net',
      'stop_loss',
      'r_multiple',
      'tags',
      'note',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['NSE:INFY:MIS:o1', 'NSE:INFY:MIS:o2']);
    expect(rows[2]).toEqual([
      'NSE:INFY:MIS:o2',
      'NSE',
      'INFY',
      'MIS',
      'long',
      '10',
      '2026-11-23T09:20:00+05:30',
      '2026-11-23T10:05:00+05:30',
      '1500',
      '1510',
      '45',
      '100',
      '12.35',
      '87.66',
      '1495',
      '2',
      'breakout;gap up',
      "'=SUM(1)",
    ]);
  });
});
