import { describe, expect, it } from 'vitest';
import { formatDayNet, formatHolding, formatR, monthName, monthStep, parseTags } from './journal-model';

describe('the journal screen’s model', () => {
  it('steps months across years', () => {
    expect(monthStep('2026-11', 1)).toBe('2026-12');
    expect(monthStep('2026-12', 1)).toBe('2027-01');
    expect(monthStep('2026-01', -1)).toBe('2025-12');
    expect(monthName('2026-11')).toBe('November 2026');
  });

  it('reads tags as typed, and says holding times and R multiples with their units and signs', () => {
    expect(parseTags(' breakout, gap up,,breakout ')).toEqual(['breakout', 'gap up']);
    expect([45_000, 12 * 60_000, (3 * 60 + 5) * 60_000, 52 * 3_600_000].map(formatHolding)).toEqual([
      '45 s',
      '12 min',
      '3 h 05 min',
      '2 d 4 h',
    ]);
    expect([2.44, -1, 0, null].map(formatR)).toEqual(['+2.4R', '−1.0R', '0.0R', '–']);
    expect([1234.5, -320.4, 0.2].map(formatDayNet)).toEqual(['+₹1,235', '−₹320', '₹0']);
  });
});
