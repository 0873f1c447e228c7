import { describe, expect, it } from 'vitest';
import { conditionMet, type AlertCondition } from '../domain/alert';
import { studyLevel, type LevelStudy } from './study-level';

const bar = (close: number, volume = 100) => ({ high: close, low: close, close, volume });

describe('studyLevel', () => {
  it('an EMA takes the live price as the forming close, and is unknown before its period', () => {
    expect(studyLevel({ kind: 'ema', period: 3 }, [bar(10)], 10)).toBeNull();
    // Seed (10 + 10 + 10) / 3 = 10 at the third close; the live 14 then moves it by k = 0.5.
    expect(studyLevel({ kind: 'ema', period: 3 }, [bar(10), bar(10), bar(10)], 14)).toBe(12);
  });
  it('the VWAP is the volume-weighted price of the closed bars, and unknown with none or no volume', () => {
    expect(studyLevel({ kind: 'vwap' }, [], 100)).toBeNull();
    expect(studyLevel({ kind: 'vwap' }, [bar(100, 0)], 100)).toBeNull();
    expect(studyLevel({ kind: 'vwap' }, [bar(100, 300), bar(104, 100)], 120)).toBe(101);
  });
});

describe('a cross of a study level', () => {
  // The level moves too: a cross is the price's side of the level changing between two readings.
  const rows: Array<[string, LevelStudy, AlertCondition, number, number, boolean]> = [
    ['price rises through the EMA: crosses above', { kind: 'ema', period: 3 }, 'crosses_up', 9, 13, true],
    ['the same rise is no cross below', { kind: 'ema', period: 3 }, 'crosses_down', 9, 13, false],
    ['price falls through the EMA: crosses below', { kind: 'ema', period: 3 }, 'crosses_down', 11, 7, true],
    ['staying above the EMA: no cross', { kind: 'ema', period: 3 }, 'crosses', 11, 12, false],
    ['price rises through the VWAP: crosses', { kind: 'vwap' }, 'crosses', 99, 102, true],
    ['price falls to exactly the VWAP: crosses below', { kind: 'vwap' }, 'crosses_down', 103, 101, true],
    ['price falls through the VWAP: no cross above', { kind: 'vwap' }, 'crosses_up', 103, 95, false],
  ];
  const closed = [bar(100, 300), bar(104, 100)]; // VWAP 101
  const emaBars = [bar(10), bar(10), bar(10)]; // EMA 3 seeded at 10
  it.each(rows)('%s', (_t, study, condition, before, after, met) => {
    const bars = study.kind === 'ema' ? emaBars : closed;
    const reading = (price: number) => ({ value: price, level: studyLevel(study, bars, price)! });
    expect(conditionMet(condition, reading(before), reading(after))).toBe(met);
  });
});

describe('conditionMet', () => {
  const rows: Array<[string, AlertCondition, number | null, number, number, boolean]> = [
    ['crosses above: from under to the level', 'crosses_up', 99, 100, 100, true],
    ['crosses above: from over to under is not', 'crosses_up', 101, 99, 100, false],
    ['crosses below: from over to under', 'crosses_down', 101, 99, 100, true],
    ['crosses below: the first reading cannot cross', 'crosses_down', null, 99, 100, false],
    ['MTM below −20,000: at −20,140', 'below', null, -20_140, -20_000, true],
    ['MTM below −20,000: at −19,000 is not', 'below', null, -19_000, -20_000, false],
    ['MTM above 40,000: at 40,000', 'above', null, 40_000, 40_000, true],
  ];
  it.each(rows)('%s', (_t, condition, previous, value, level, met) => {
    const before = previous === null ? null : { value: previous, level };
    expect(conditionMet(condition, before, { value, level })).toBe(met);
  });
});
