import { describe, expect, it } from 'vitest';
import { toIstIso } from '@shared/lib/ist-time';
import type { Exchange } from '@shared/domain/instrument';
import { openMarketStart, sessionAt, sessionMinutesBefore } from './calendar';

/**
 * The session calendar (docs/api.md §Sessions and the calendar) as a table: for an exchange at
 * an IST instant, the phase, why, and when it next opens and closes. Mon 23 Nov 2026 is a trading
 * day, Tue 24 Nov a holiday (Guru Nanak Jayanti), Sat 28 Nov a weekend day.
 */

const at = (text: string): number => Date.parse(`${text}+05:30`);
const ist = (ms: number | null): string | null => (ms === null ? null : toIstIso(ms).slice(0, 16));

describe('the session calendar', () => {
  it.each<[Exchange, string, string, string | null, string, string]>([
    // exchange, IST time, phase, detail, next open, next close
    ['NSE', '2026-11-23T08:59:59', 'closed', 'Before the pre-open', '2026-11-23T09:15', '2026-11-23T15:30'],
    ['NSE', '2026-11-23T09:00:00', 'pre_open', 'Pre-open', '2026-11-23T09:15', '2026-11-23T15:30'],
    ['NFO', '2026-11-23T09:14:59', 'pre_open', 'Pre-open', '2026-11-23T09:15', '2026-11-23T15:30'],
    ['NSE', '2026-11-23T09:15:00', 'open', null, '2026-11-25T09:15', '2026-11-23T15:30'],
    ['BSE', '2026-11-23T15:29:59', 'open', null, '2026-11-25T09:15', '2026-11-23T15:30'],
    // The close, and the next open skips the holiday on the 24th.
    ['NSE', '2026-11-23T15:30:00', 'closed', 'After hours', '2026-11-25T09:15', '2026-11-25T15:30'],
    ['NSE', '2026-11-24T11:00:00', 'closed', 'Holiday: Guru Nanak Jayanti', '2026-11-25T09:15', '2026-11-25T15:30'],
    ['MCX', '2026-11-24T20:00:00', 'closed', 'Holiday: Guru Nanak Jayanti', '2026-11-25T09:00', '2026-11-25T23:30'],
    ['NSE', '2026-11-28T10:00:00', 'closed', 'Weekend', '2026-11-30T09:15', '2026-11-30T15:30'],
    ['NSE', '2026-11-27T18:00:00', 'closed', 'After hours', '2026-11-30T09:15', '2026-11-30T15:30'],
    // MCX trades into the night without a pre-open; CDS until 17:00.
    ['MCX', '2026-11-23T08:59:00', 'closed', 'Before the pre-open', '2026-11-23T09:00', '2026-11-23T23:30'],
    ['MCX', '2026-11-23T22:00:00', 'open', null, '2026-11-25T09:00', '2026-11-23T23:30'],
    ['MCX', '2026-11-23T23:30:00', 'closed', 'After hours', '2026-11-25T09:00', '2026-11-25T23:30'],
    ['CDS', '2026-11-23T16:59:00', 'open', null, '2026-11-25T09:00', '2026-11-23T17:00'],
    ['CDS', '2026-11-23T17:00:00', 'closed', 'After hours', '2026-11-25T09:00', '2026-11-25T17:00'],
    ['NSE', '2026-12-25T10:00:00', 'closed', 'Holiday: Christmas', '2026-12-28T09:15', '2026-12-28T15:30'],
  ])('%s at %s is %s (%s), next open %s, next close %s', (exchange, time, phase, detail, nextOpen, nextClose) => {
    const s = sessionAt(exchange, at(time));
    expect({ phase: s.phase, detail: s.detail, nextOpen: ist(s.nextOpen), nextClose: ist(s.nextClose) }).toEqual({
      phase,
      detail,
      nextOpen,
      nextClose,
    });
  });

  it('gives a pre-open start only to the exchanges that have one', () => {
    expect(ist(sessionAt('NSE', at('2026-11-23T16:00:00')).nextPreOpen)).toBe('2026-11-25T09:00');
    expect(sessionAt('MCX', at('2026-11-23T16:00:00')).nextPreOpen).toBeNull();
  });

  it.each([
    ['inside NSE hours it is the wall clock itself', '2026-11-23T10:00:00', '2026-11-23T10:00'],
    ['before the open it waits for the open', '2026-11-23T08:00:00', '2026-11-23T09:15'],
    ['in the pre-open it starts at the open', '2026-11-23T09:05:00', '2026-11-23T09:15'],
    [
      'after the close it is the next trading day’s open (skipping the holiday)',
      '2026-11-23T20:00:00',
      '2026-11-25T09:15',
    ],
    ['on a Saturday it is Monday’s open', '2026-11-28T03:00:00', '2026-11-30T09:15'],
  ])('starts a new user’s market clock inside an open market: %s', (_why, wall, start) => {
    expect(ist(openMarketStart(at(wall)))).toBe(start);
  });

  it('lists session minutes only, newest first, across a holiday and a night', () => {
    const minutes = sessionMinutesBefore('NSE', at('2026-11-25T09:17:00'), 4).map(ist);
    expect(minutes).toEqual(['2026-11-25T09:16', '2026-11-25T09:15', '2026-11-23T15:29', '2026-11-23T15:28']);
  });
});
