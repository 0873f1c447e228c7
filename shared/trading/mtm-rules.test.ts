import { describe, expect, it } from 'vitest';
import { MtmSettings, NO_MTM_SETTINGS } from '../domain/mtm';
import { aKillSwitchRun, aRunLeavingReliance } from '../testing/safety-fixtures';
import { dayCharges, dayMtm, judgeMtm, mtmHeadline, positionMtm, resolveLevels, type MtmRow } from './mtm-rules';

const flat: MtmRow = {
  quantity: 0,
  overnightQuantity: 0,
  closePrice: 0,
  lastPrice: 0,
  multiplier: 1,
  dayBuyValue: 0,
  daySellValue: 0,
  realisedPnl: 0,
};

describe('positionMtm: the day P&L of one position', () => {
  it.each<[string, MtmRow, number]>([
    [
      'long 25 RELIANCE bought at 2,500, now 2,480',
      { ...flat, quantity: 25, lastPrice: 2480, dayBuyValue: 62_500 },
      -500,
    ],
    [
      'short 50 NIFTY futures (multiplier 1, lot 50) sold at 24,000, now 24,100',
      { ...flat, quantity: -50, lastPrice: 24_100, daySellValue: 1_200_000 },
      -5_000,
    ],
    [
      'an MCX future with multiplier 100: long 1 at 6,000 (value 6,00,000), now 6,010',
      { ...flat, quantity: 1, lastPrice: 6_010, multiplier: 100, dayBuyValue: 600_000 },
      1_000,
    ],
    [
      'a closed round trip: bought 10 at 100, sold 10 at 103',
      { ...flat, dayBuyValue: 1_000, daySellValue: 1_030, lastPrice: 250, realisedPnl: 30 },
      30,
    ],
    [
      'carried in 500 from a close of 200, now 198: the day runs from the close, not the cost',
      { ...flat, quantity: 500, overnightQuantity: 500, closePrice: 200, lastPrice: 198 },
      -1_000,
    ],
  ])('%s', (_name, row, expected) => {
    expect(positionMtm(row)).toBeCloseTo(expected, 6);
  });

  it('sums the account and splits realised from unrealised as the broker reports realised', () => {
    const day = dayMtm([
      { ...flat, dayBuyValue: 1_000, daySellValue: 1_030, realisedPnl: 30 },
      { ...flat, quantity: 25, lastPrice: 2480, dayBuyValue: 62_500 },
    ]);
    expect(day).toEqual({ mtm: -470, realised: 30, unrealised: -500 });
  });
});

describe('dayCharges: the estimate shown beside the MTM', () => {
  it('charges each filled order once, with its multiplier, and nothing for unfilled orders', () => {
    const order = {
      orderId: '1',
      exchange: 'MCX' as const,
      tradingsymbol: 'CRUDEOIL26DECFUT',
      transactionType: 'BUY' as const,
      product: 'NRML' as const,
      filledQuantity: 1,
      averagePrice: 6_000,
    };
    const withMultiplier = dayCharges([order, { ...order, orderId: '2', filledQuantity: 0 }], () => 100);
    const without = dayCharges([order], () => 1);
    // ₹20 brokerage cap reached at a 6,00,000 turnover; far under it at 6,000.
    expect(withMultiplier).toBeGreaterThan(20);
    expect(without).toBeLessThan(5);
    expect(dayCharges([], () => 1)).toBe(0);
  });
});

describe('resolveLevels', () => {
  const s = (over: Partial<MtmSettings>): MtmSettings => ({ ...NO_MTM_SETTINGS, ...over });
  it.each<[string, MtmSettings, number | null, ReturnType<typeof resolveLevels>]>([
    [
      'rupees stand alone',
      s({ stop: { value: 20_000, unit: 'rupees' } }),
      null,
      { stop: -20_000, target: null, trail: null },
    ],
    [
      '% of the opening funds',
      s({ stop: { value: 2, unit: 'percent' }, target: { value: 4, unit: 'percent' } }),
      1_000_000,
      { stop: -20_000, target: 40_000, trail: null },
    ],
    ['% without the opening funds: not resolvable', s({ stop: { value: 2, unit: 'percent' } }), null, null],
    [
      'a trail in rupees',
      s({ trail: { from: { value: 30_000, unit: 'rupees' }, lock: { value: 20_000, unit: 'rupees' } } }),
      null,
      { stop: null, target: null, trail: { from: 30_000, lock: 20_000 } },
    ],
  ])('%s', (_name, settings, funds, expected) => {
    expect(resolveLevels(settings, funds)).toEqual(expected);
  });

  it('refuses a lock-in at or above the gain it starts at, naming the field', () => {
    const r = MtmSettings.safeParse(
      s({ trail: { from: { value: 20_000, unit: 'rupees' }, lock: { value: 30_000, unit: 'rupees' } } }),
    );
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['trail', 'lock']);
  });
});

describe('judgeMtm: the trail and the levels', () => {
  const levels = { stop: -20_000, target: 40_000, trail: { from: 30_000, lock: 20_000 } };
  it.each<[string, number, number | null, string | null, number | null]>([
    ['a small loss: nothing', -19_999, null, null, null],
    ['at the stop: the stop', -20_000, null, 'stop', null],
    ['past the stop on a gap: the stop', -25_000, 5_000, 'stop', null],
    ['up 29,000, never 30,000: no lock, nothing', 19_000, 29_000, null, null],
    ['once +30,000, now 25,000: locked at 20,000, nothing yet', 25_000, 30_000, null, 20_000],
    ['once +30,000, now 20,000: the lock-in', 20_000, 31_000, 'trail', 20_000],
    ['the target', 40_000, 39_000, 'target', 20_000],
  ])('%s', (_name, mtm, peak, hit, lockedAt) => {
    const j = judgeMtm(levels, mtm, peak);
    expect(j.hit?.level ?? null).toBe(hit);
    expect(j.lockedAt).toBe(lockedAt);
  });

  it('the trail starts on the tick that reaches it and the peak never falls', () => {
    let peak: number | null = null;
    const hits: (string | null)[] = [];
    for (const mtm of [10_000, 30_500, 24_000, 21_000, 19_500]) {
      const j = judgeMtm(levels, mtm, peak);
      peak = j.peak;
      hits.push(j.hit?.level ?? null);
    }
    expect(peak).toBe(30_500);
    expect(hits).toEqual([null, null, null, null, 'trail']);
  });
});

describe('mtmHeadline', () => {
  // 14:02:11 IST on 2026-11-27.
  const at = Date.parse('2026-11-27T08:32:11Z');
  const trigger = { level: 'stop' as const, mtm: -20_140, levelRupees: -20_000, at, runId: 'sr1', runsAt: null };
  it('says why and at what figure once flat', () => {
    expect(mtmHeadline({ state: 'fired', trigger }, aKillSwitchRun(at))).toBe(
      'Flattened at 14:02:11 by MTM stop −₹20,140',
    );
  });
  it('names what a run that could not finish left open', () => {
    const text = mtmHeadline({ state: 'fired', trigger }, aRunLeavingReliance(at));
    expect(text).toBe('Not flat: MTM stop −₹20,140 at 14:02:11 — still open: RELIANCE +25');
  });
  it('after a restart the run is not at hand: says it ran, not that it is flat', () => {
    expect(mtmHeadline({ state: 'fired', trigger }, null)).toBe(
      'MTM stop −₹20,140 at 14:02:11: the kill switch ran — check the order book',
    );
  });
  it('says flattening while the run is going', () => {
    expect(mtmHeadline({ state: 'fired', trigger }, aKillSwitchRun(at, { state: 'running' }))).toBe(
      'Flattening: MTM stop −₹20,140 at 14:02:11',
    );
  });
});
