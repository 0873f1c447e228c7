import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { searchInstruments } from './instrument-search';

const base = { segment: 'NFO', lotSize: 75, tickSize: 0.05, freezeQuantity: 1800, multiplier: 1, lastPrice: 100 };
let token = 1;
const fut = (sym: string, expiry: string): Instrument => ({
  ...base,
  instrumentToken: token++,
  exchange: 'NFO',
  tradingsymbol: sym,
  name: 'NIFTY',
  instrumentType: 'FUT',
  expiry,
  strike: null,
});
const opt = (sym: string, expiry: string, strike: number, type: 'CE' | 'PE'): Instrument => ({
  ...fut(sym, expiry),
  instrumentType: type,
  strike,
});

const LIST = [
  fut('NIFTY26DECFUT', '2026-12-29'),
  fut('NIFTY27FEBFUT', '2027-02-23'),
  fut('NIFTY27JANFUT', '2027-01-26'),
  opt('NIFTY26D0126000CE', '2026-12-01', 26000, 'CE'),
  opt('NIFTY26D0126000PE', '2026-12-01', 26000, 'PE'),
];

describe('instrument search over derivatives', () => {
  it('lists an underlying’s futures by expiry, not by their codes’ alphabet', () => {
    const futures = searchInstruments(LIST, 'nifty fut').map((i) => i.tradingsymbol);
    expect(futures).toEqual(['NIFTY26DECFUT', 'NIFTY27JANFUT', 'NIFTY27FEBFUT']);
  });

  it('finds an option by the words a trader reads: underlying, expiry month, strike and type', () => {
    expect(searchInstruments(LIST, 'nifty dec 26000 ce').map((i) => i.tradingsymbol)).toEqual(['NIFTY26D0126000CE']);
  });
});
