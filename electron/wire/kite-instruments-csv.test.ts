import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  kiteInstrumentsCsv,
  parseInstrumentsCsv,
  UNKNOWN_FREEZE_QUANTITY,
  type KiteInstrumentRow,
} from './kite-instruments-csv';

/**
 * The one codec of Kite's instrument dump: what the paper broker's Kite dialect writes, the Kite
 * adapter reads back as the same instruments, whatever a name holds (commas, quotes, line ends).
 */

const text = fc.string({ unit: fc.constantFrom(...'AZaz09 ,"&.-\r\n'.split('')), minLength: 1, maxLength: 24 });

const row = fc.record({
  instrument_token: fc.integer({ min: 1, max: 0xffffffff }),
  tradingsymbol: text,
  name: text,
  last_price: fc.double({ min: 0, max: 100_000, noNaN: true }),
  option: fc.option(fc.record({ type: fc.constantFrom('CE', 'PE'), strike: fc.integer({ min: 1, max: 90_000 }) })),
  tick_size: fc.constantFrom(0.05, 0.01, 0.0025, 1),
  lot_size: fc.integer({ min: 1, max: 5_000 }),
  exchange: fc.constantFrom('NSE', 'BSE', 'NFO', 'MCX', 'CDS'),
});

describe('the Kite instruments CSV', () => {
  it('reads back what it writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 20 }), async (rows) => {
        const written: KiteInstrumentRow[] = rows.map((r) => ({
          instrument_token: r.instrument_token,
          exchange_token: Math.floor(r.instrument_token / 256),
          tradingsymbol: r.tradingsymbol,
          name: r.name,
          last_price: r.last_price,
          expiry: r.option ? '2026-11-26' : '',
          strike: r.option?.strike ?? 0,
          tick_size: r.tick_size,
          lot_size: r.lot_size,
          instrument_type: r.option?.type ?? 'EQ',
          segment: r.exchange,
          exchange: r.exchange,
        }));
        const { instruments, skipped } = await parseInstrumentsCsv(kiteInstrumentsCsv(written), 0);
        expect(skipped).toBe(0);
        expect(instruments).toEqual(
          rows.map((r) =>
            expect.objectContaining({
              instrumentToken: r.instrument_token,
              tradingsymbol: r.tradingsymbol,
              name: r.name,
              lastPrice: r.last_price,
              exchange: r.exchange,
              instrumentType: r.option?.type ?? 'EQ',
              strike: r.option ? r.option.strike : null,
              expiry: r.option ? '2026-11-26' : null,
              tickSize: r.tick_size,
              lotSize: r.lot_size,
            }),
          ),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('gives an index derivative the freeze limit the exchange publishes, and any other contract none', async () => {
    const base = { last_price: 0, tick_size: 0.1, exchange_token: 1 };
    const rows: KiteInstrumentRow[] = [
      {
        ...base,
        instrument_token: 256,
        tradingsymbol: 'NIFTY26DECFUT',
        name: 'NIFTY',
        expiry: '2026-12-29',
        strike: 0,
        lot_size: 75,
        instrument_type: 'FUT',
        segment: 'NFO-FUT',
        exchange: 'NFO',
      },
      {
        ...base,
        instrument_token: 512,
        tradingsymbol: 'SENSEX26DEC84500CE',
        name: 'SENSEX',
        expiry: '2026-12-24',
        strike: 84_500,
        lot_size: 20,
        instrument_type: 'CE',
        segment: 'BFO-OPT',
        exchange: 'BFO',
      },
      {
        ...base,
        instrument_token: 768,
        tradingsymbol: 'RELIANCE26DECFUT',
        name: 'RELIANCE',
        expiry: '2026-12-29',
        strike: 0,
        lot_size: 500,
        instrument_type: 'FUT',
        segment: 'NFO-FUT',
        exchange: 'NFO',
      },
      {
        ...base,
        instrument_token: 1024,
        tradingsymbol: 'NIFTY',
        name: 'NIFTY',
        expiry: '',
        strike: 0,
        lot_size: 1,
        instrument_type: 'EQ',
        segment: 'NSE',
        exchange: 'NSE',
      },
    ];
    const { instruments } = await parseInstrumentsCsv(kiteInstrumentsCsv(rows), 0);
    expect(instruments.map((i) => [i.tradingsymbol, i.freezeQuantity])).toEqual([
      ['NIFTY26DECFUT', 1_800],
      ['SENSEX26DEC84500CE', 1_000],
      ['RELIANCE26DECFUT', UNKNOWN_FREEZE_QUANTITY],
      ['NIFTY', UNKNOWN_FREEZE_QUANTITY],
    ]);
  });
});
