import { describe, expect, it } from 'vitest';
import { SquareOffSettings } from '../domain/square-off';
import { toIstIso } from '../lib/ist-time';
import {
  DEFAULT_SQUARE_OFF,
  squareOffDecision,
  squareOffPlan,
  type SessionTimes,
  type SquareOffFacts,
} from './square-off-rules';

/** The square-off's rules as tables: when it is planned, and what main does at each moment. */

const ist = (text: string): number => Date.parse(`${text}+05:30`);
const shown = (ms: number): string => toIstIso(ms).slice(0, 16).replace('T', ' ');
/** A session in progress on `date`, closing at `to`. */
const open = (date: string, to: string): SessionTimes => ({
  phase: 'open',
  nextOpen: ist(`${date}T09:15:00`) + 86_400_000,
  nextClose: ist(`${date}T${to}:00`),
});
/** Closed now; the next session on `date`, `from`–`to`. */
const closed = (date: string, from: string, to: string): SessionTimes => ({
  phase: 'closed',
  nextOpen: ist(`${date}T${from}:00`),
  nextClose: ist(`${date}T${to}:00`),
});

describe('squareOffPlan: when, per exchange and session', () => {
  it.each<[string, Parameters<typeof squareOffPlan>, string, string]>([
    [
      'NSE at the default, in the session',
      ['NSE', '15:10', open('2026-11-27', '15:30')],
      '2026-11-27 15:10',
      '2026-11-27 15:08',
    ],
    ['NFO at a time of its own', ['NFO', '15:00', open('2026-11-27', '15:30')], '2026-11-27 15:00', '2026-11-27 14:58'],
    [
      'MCX at its default, its close 23:30',
      ['MCX', '23:10', open('2026-11-27', '23:30')],
      '2026-11-27 23:10',
      '2026-11-27 23:08',
    ],
    [
      'CDS at its default, its close 17:00',
      ['CDS', '16:40', open('2026-11-27', '17:00')],
      '2026-11-27 16:40',
      '2026-11-27 16:38',
    ],
    // Before the open the plan is the coming session's.
    [
      'before the pre-open: today',
      ['NSE', '15:10', closed('2026-11-27', '09:15', '15:30')],
      '2026-11-27 15:10',
      '2026-11-27 15:08',
    ],
    // Friday after hours: the calendar's next session is Monday's; a holiday is skipped the same way.
    [
      'after hours on a Friday: Monday',
      ['NSE', '15:10', closed('2026-11-30', '09:15', '15:30')],
      '2026-11-30 15:10',
      '2026-11-30 15:08',
    ],
    [
      'the day before Christmas: the 28th',
      ['NSE', '15:10', closed('2026-12-28', '09:15', '15:30')],
      '2026-12-28 15:10',
      '2026-12-28 15:08',
    ],
    // A special session keeps the lead before its own close: a Sunday evening session 18:00–19:00.
    [
      'a special evening session',
      ['NSE', '15:10', closed('2026-11-08', '18:00', '19:00')],
      '2026-11-08 18:40',
      '2026-11-08 18:38',
    ],
    // …and never before it opens: 18:00–18:15 with a lead of 20 minutes.
    [
      'a session shorter than the lead',
      ['NSE', '15:10', closed('2026-11-08', '18:00', '18:15')],
      '2026-11-08 18:00',
      '2026-11-08 17:58',
    ],
    [
      'a shortened day closing 13:00',
      ['NSE', '15:10', open('2026-11-27', '13:00')],
      '2026-11-27 12:40',
      '2026-11-27 12:38',
    ],
  ])('%s', (_name, args, at, warnAt) => {
    const plan = squareOffPlan(...args);
    expect([shown(plan.at), shown(plan.warnAt)]).toEqual([at, warnAt]);
    expect(plan.date).toBe(at.slice(0, 10));
  });
});

describe('squareOffDecision: what main does', () => {
  const plan = squareOffPlan('NSE', '15:10', open('2026-11-27', '15:30'));
  const base: SquareOffFacts = {
    now: ist('2026-11-27T15:10:00'),
    plan,
    doneOn: null,
    watchingSince: ist('2026-11-27T09:00:00'),
    exposed: true,
  };
  it.each<[string, Partial<SquareOffFacts>, ReturnType<typeof squareOffDecision>]>([
    ['hours before', { now: ist('2026-11-27T12:00:00') }, 'wait'],
    ['at 15:07:59', { now: ist('2026-11-27T15:07:59') }, 'wait'],
    ['at 15:08 with MIS open: the warning', { now: ist('2026-11-27T15:08:00') }, 'warn'],
    ['at 15:08 with nothing open: no warning', { now: ist('2026-11-27T15:08:00'), exposed: false }, 'wait'],
    ['at 15:08, not known: the warning', { now: ist('2026-11-27T15:08:00'), exposed: null }, 'warn'],
    ['at 15:10, watched all day: run', {}, 'run'],
    ['at 15:10, positions not known: run (the run says what it cannot know)', { exposed: null }, 'run'],
    ['at 15:10 with nothing open: done', { exposed: false }, 'done'],
    ['already done today (a restart after the run): done', { doneOn: '2026-11-27' }, 'done'],
    ['done yesterday: today runs', { doneOn: '2026-11-26' }, 'run'],
    [
      'restarted at 15:12 with MIS open: ask at once',
      { now: ist('2026-11-27T15:12:00'), watchingSince: ist('2026-11-27T15:12:00') },
      'ask',
    ],
    [
      'restarted at 15:12 with nothing open: done',
      { now: ist('2026-11-27T15:12:00'), watchingSince: ist('2026-11-27T15:12:00'), exposed: false },
      'done',
    ],
    ['started at 15:09, watched across the time: run', { watchingSince: ist('2026-11-27T15:09:00') }, 'run'],
    ['after the close: done', { now: ist('2026-11-27T15:30:00') }, 'done'],
  ])('%s', (_name, facts, decision) => {
    expect(squareOffDecision({ ...base, ...facts })).toBe(decision);
  });
});

describe('SquareOffSettings', () => {
  it('takes the defaults', () => {
    expect(SquareOffSettings.parse(DEFAULT_SQUARE_OFF)).toEqual(DEFAULT_SQUARE_OFF);
  });
  it.each([
    [{ NSE: '3:10' }, 'times.NSE', 'expected HH:MM (IST)'],
    [{ NSE: '15:30' }, 'times.NSE', "must be before NSE's close"],
    [{ MCX: '23:45' }, 'times.MCX', "must be before MCX's close"],
  ])('refuses %o naming the field', (times, field, message) => {
    const r = SquareOffSettings.safeParse({ ...DEFAULT_SQUARE_OFF, times: { ...DEFAULT_SQUARE_OFF.times, ...times } });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]]);
  });
});
