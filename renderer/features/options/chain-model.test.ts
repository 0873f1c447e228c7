import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';
import type { OptionChainRow, OptionLeg } from '@shared/domain/market';
import {
  formatDelta,
  formatExpiry,
  formatOi,
  formatOiChange,
  inTheMoney,
  maxPain,
  putCallRatio,
  spotIndex,
  underlyingsOf,
} from './chain-model';

const LEG: OptionLeg = {
  instrumentToken: 1,
  tradingsymbol: 'X',
  lastPrice: 10,
  change: 0,
  oi: 0,
  oiChange: null,
  iv: 14,
  delta: 0.5,
  bid: null,
  ask: null,
  volume: 0,
};

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

describe('the chain at a glance', () => {
  const row = (strike: number, callOi: number, putOi: number): OptionChainRow => ({
    strike,
    call: { ...LEG, oi: callOi },
    put: { ...LEG, oi: putOi },
  });

  it('the put–call ratio is the puts’ open interest over the calls’', () => {
    expect(putCallRatio([row(100, 300, 100), row(110, 100, 500)])).toBeCloseTo(1.5, 12);
    expect(putCallRatio([row(100, 0, 100)])).toBeNull();
  });

  it('max pain is the strike where the holders would be paid least at expiry', () => {
    // At 100: calls pay 0, puts pay 500·10 + 900·20 = 23,000. At 110: calls 100·10 = 1,000, puts
    // 900·10 = 9,000 → 10,000. At 120: calls 100·20 + 200·10 = 4,000, puts 0 → 4,000. At 130:
    // calls 100·30 + 200·20 + 600·10 = 13,000.
    const rows = [row(100, 100, 0), row(110, 200, 500), row(120, 600, 900), row(130, 50, 0)];
    expect(maxPain(rows)).toBe(120);
    expect(maxPain([row(100, 0, 0)])).toBeNull();
  });

  it('an OI change reads with its sign', () => {
    expect(formatOiChange(61_500)).toBe('+61,500');
    expect(formatOiChange(-1_250_000)).toBe('−12.50L');
    expect(formatOiChange(0)).toBe('0');
    expect(formatOiChange(null)).toBe('–');
  });
});
