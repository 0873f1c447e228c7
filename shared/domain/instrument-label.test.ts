import { describe, expect, it } from 'vitest';
import { compareDerivatives, instrumentLabel } from './instrument-label';

const opt = (expiry: string, strike: number, type: 'CE' | 'PE', sym = 'NIFTY26D0126000CE') => ({
  tradingsymbol: sym,
  name: 'NIFTY',
  instrumentType: type,
  expiry,
  strike,
});
const fut = (expiry: string, sym: string) => ({
  tradingsymbol: sym,
  name: 'NIFTY',
  instrumentType: 'FUT' as const,
  expiry,
  strike: null,
});

describe('a contract as a trader reads it', () => {
  it('names an option by underlying, expiry, strike and type, and a future by its expiry', () => {
    expect(instrumentLabel(opt('2026-12-01', 26000, 'CE'), '2026-11-28')).toBe('NIFTY 1 Dec 26000 CE');
    expect(instrumentLabel(fut('2026-12-29', 'NIFTY26DECFUT'), '2026-11-28')).toBe('NIFTY 29 Dec FUT');
    expect(instrumentLabel(fut('2027-01-26', 'NIFTY27JANFUT'), '2026-11-28')).toBe('NIFTY 26 Jan 2027 FUT');
    expect(
      instrumentLabel({ tradingsymbol: 'SBIN', name: 'STATE BANK', instrumentType: 'EQ', expiry: null, strike: null }),
    ).toBe('SBIN');
  });

  it('sorts futures by expiry, not by their codes’ alphabet (26DEC, 27JAN, 27FEB)', () => {
    const list = [
      fut('2026-12-29', 'NIFTY26DECFUT'),
      fut('2027-02-23', 'NIFTY27FEBFUT'),
      fut('2027-01-26', 'NIFTY27JANFUT'),
    ];
    expect(list.sort((a, b) => compareDerivatives(a, b) ?? 0).map((i) => i.tradingsymbol)).toEqual([
      'NIFTY26DECFUT',
      'NIFTY27JANFUT',
      'NIFTY27FEBFUT',
    ]);
  });

  it('puts options of one expiry by strike, the call before the put, after the future', () => {
    const list = [opt('2026-12-29', 26100, 'PE'), opt('2026-12-29', 26000, 'PE'), opt('2026-12-29', 26000, 'CE')];
    const sorted = [...list, fut('2026-12-29', 'F')].sort((a, b) => compareDerivatives(a, b) ?? 0);
    expect(sorted.map((i) => `${i.strike ?? 'FUT'} ${i.instrumentType}`)).toEqual([
      'FUT FUT',
      '26000 CE',
      '26000 PE',
      '26100 PE',
    ]);
  });
});
