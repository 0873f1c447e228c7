import { describe, expect, it } from 'vitest';
import type { SquareOffState } from '@shared/domain/square-off';
import { DEFAULT_SQUARE_OFF } from '@shared/trading/square-off-rules';
import { countdown, squareOffChipText } from './square-off-text';

const ist = (text: string): number => Date.parse(`${text}+05:30`);
const base: SquareOffState = {
  settings: { ...DEFAULT_SQUARE_OFF, enabled: true },
  phase: 'waiting',
  next: {
    date: '2026-11-27',
    at: ist('2026-11-27T15:10:00'),
    warnAt: ist('2026-11-27T15:08:00'),
    exchanges: ['NSE'],
  },
  marketLeadMs: 0,
  last: null,
};
const outcome = (o: Partial<NonNullable<SquareOffState['last']>>): SquareOffState['last'] => ({
  date: '2026-11-27',
  at: ist('2026-11-27T15:10:00'),
  exchanges: ['NSE'],
  positions: 3,
  state: 'done',
  detail: '',
  ...o,
});

describe('the header chip says', () => {
  it.each<[string, Partial<SquareOffState>, string, string]>([
    ['off', { phase: 'off', settings: DEFAULT_SQUARE_OFF, next: null }, 'Square-off off', 'quiet'],
    ['the time and the countdown', {}, 'Square-off 15:10 · 1:04:05', 'quiet'],
    ['the warning', { phase: 'warning' }, 'Square-off at 15:10 in 1:04:05', 'warn'],
    ['the question after a restart', { phase: 'asking' }, 'Square-off time passed: intraday positions open', 'bad'],
    ['the run', { phase: 'running' }, 'Squaring off intraday positions…', 'warn'],
    ['how it went', { phase: 'done', last: outcome({}) }, 'Squared off at 15:10:00: 3 positions', 'good'],
    ['one position', { phase: 'done', last: outcome({ positions: 1 }) }, 'Squared off at 15:10:00: 1 position', 'good'],
    [
      'what is still open',
      {
        phase: 'done',
        last: outcome({ state: 'incomplete', detail: '1 of 2 exit orders placed — 1 item still open' }),
      },
      'Square-off at 15:10:00 incomplete: 1 of 2 exit orders placed — 1 item still open',
      'bad',
    ],
    [
      'nothing was open',
      { phase: 'done', last: outcome({ positions: 0 }) },
      'Square-off at 15:10:00: nothing intraday was open',
      'quiet',
    ],
    [
      'declined',
      { phase: 'done', last: outcome({ state: 'declined', positions: 0, at: ist('2026-11-27T15:12:07') }) },
      'Square-off declined at 15:12:07',
      'quiet',
    ],
  ])('%s', (_name, patch, text, tone) => {
    expect(squareOffChipText({ ...base, ...patch }, ist('2026-11-27T14:05:55'))).toEqual({ text, tone });
  });

  it.each([
    [0, '0:00'],
    [59_001, '1:00'],
    [65_000, '1:05'],
    [3_600_000, '1:00:00'],
    [-5_000, '0:00'],
  ])('countdown(%i) = %s', (ms, text) => {
    expect(countdown(ms)).toBe(text);
  });
});
