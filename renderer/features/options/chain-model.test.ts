import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';
import { formatDelta, formatExpiry, formatOi, inTheMoney, spotIndex, underlyingsOf } from './chain-model';

const option = (name: string, type: 'CE' | 'PE'): Instrument => ({ ...NIFTY_CE, name, instrumentType: type });

describe('underlyingsOf', () => {
  it('lists each underlying with options once, indices first in their usual order, then stocks A–Z', () => {
    const list = [
      option('RELIANCE', 'CE'),
      option('SENSEX', 'PE'),
      option('NIFTY', 'CE'),
      option('BANKNIFTY', 'PE'),
      option('NIFTY', 'PE'),
      option('CRUDEOIL', 'CE'),
      INFY,
      NIFTY_FUT,
    ];
    expect(underlyingsOf(list)).toEqual(['NIFTY', 'BANKNIFTY', 'SENSEX', 'CRUDEOIL', 'RELIANCE']);
  });
});

describe('the money', () => {
  it('shades calls below the underlying and puts above it, neither at it', () => {
    expect(inTheMoney('call', 25_900, 26_019.06)).toBe(true);
    expect(inTheMoney('put', 25_900, 26_019.06)).toBe(false);
    expect(inTheMoney('put', 26_050, 26_019.06)).toBe(true);
    expect(inTheMoney('call', 26_000, 26_000)).toBe(false);
    expect(inTheMoney('put', 26_000, 26_000)).toBe(false);
  });

  it('draws the spot line before the first strike above the underlying, or after the last', () => {
    const rows = [25_900, 25_950, 26_000, 26_050].map((strike) => ({ strike, call: null, put: null }));
    expect(spotIndex(rows, 26_019.06)).toBe(3);
    expect(spotIndex(rows, 26_000)).toBe(3);
    expect(spotIndex(rows, 25_000)).toBe(0);
    expect(spotIndex(rows, 27_000)).toBe(4);
  });
});

describe('chain figures', () => {
  it('prints open interest in full up to 99,999, then in lakhs and crores', () => {
    expect(formatOi(97_056)).toBe('97,056');
    expect(formatOi(4_281_225)).toBe('42.81L');
    expect(formatOi(125_000_000)).toBe('12.50Cr');
  });

  it('prints a put delta with a true minus, and a tiny one as 0.00 without a sign', () => {
    expect(formatDelta(-0.4544)).toBe('−0.45');
    expect(formatDelta(0.6661)).toBe('0.67');
    expect(formatDelta(-0.001)).toBe('0.00');
  });

  it('names an expiry by day and month, with the year only when it is not the nearest one’s', () => {
    expect(formatExpiry('2026-12-01', '2026-12-01')).toBe('1 Dec');
    expect(formatExpiry('2027-01-25', '2026-12-01')).toBe('25 Jan 27');
  });
});
