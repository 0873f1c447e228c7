import { describe, expect, it } from 'vitest';
import { istDate, istDayStart, parseIso, toIstIso } from './ist-time';

describe('ist-time', () => {
  it('formats an instant with the +05:30 offset', () => {
    expect(toIstIso(new Date('2026-11-20T03:45:00Z'))).toBe('2026-11-20T09:15:00+05:30');
  });
  it('rolls the date over at IST midnight, not UTC midnight', () => {
    expect(toIstIso(Date.parse('2026-11-19T18:30:00Z'))).toBe('2026-11-20T00:00:00+05:30');
    expect(istDate(Date.parse('2026-11-19T18:29:59Z'))).toBe('2026-11-19');
  });
  it('round-trips through Date.parse', () => {
    const t = Date.parse('2026-01-02T10:11:12Z');
    expect(Date.parse(toIstIso(t))).toBe(t);
  });
  it('finds the start of the IST day', () => {
    expect(toIstIso(istDayStart(Date.parse('2026-11-20T12:00:00Z')))).toBe('2026-11-20T00:00:00+05:30');
  });
  it('parses ISO times and dates, rejects other text', () => {
    expect(parseIso('2026-11-20T09:15:00+05:30')).toBe(Date.parse('2026-11-20T03:45:00Z'));
    expect(parseIso('2026-11-20')).toBe(Date.parse('2026-11-19T18:30:00Z'));
    expect(parseIso('yesterday')).toBeNaN();
  });
});
