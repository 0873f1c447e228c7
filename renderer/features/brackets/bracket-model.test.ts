import { describe, expect, it } from 'vitest';
import type { Bracket } from '@shared/domain/bracket';
import { aBracket, aChild } from '../../test/bracket-fixture';
import {
  bracketBadge,
  bracketState,
  childText,
  trailText,
  unprotectedBrackets,
  unprotectedLabel,
} from './bracket-model';

/** What the Brackets tab says of each bracket (docs/brackets.md §States). */

const child = aChild;
const base = aBracket();

describe('the Brackets tab words', () => {
  it.each<[string, Partial<Bracket>, string, string]>([
    ['waiting', {}, 'Waiting for entry', 'st-pending'],
    [
      'protecting what filled',
      { phase: 'protecting', entry: { ...base.entry!, status: 'filled', filled: 30 } },
      'Protecting 30',
      'st-open',
    ],
    ['a position', { phase: 'protecting', kind: 'protect', entry: null, quantity: 75 }, 'Protecting 75', 'st-open'],
    [
      'trailing',
      {
        phase: 'protecting',
        trail: { by: 'points', amount: 5 },
        stop: child({ status: 'working', order: { ...child({}).order, triggerPrice: 1512.35 } }),
      },
      'Trailing at 1,512.35',
      'st-open',
    ],
    [
      'protecting what is left after the stop-loss filled part',
      {
        phase: 'protecting',
        entry: { ...base.entry!, status: 'filled', filled: 2000 },
        exited: 631,
        stop: child({ status: 'working', order: { ...child({}).order, quantity: 1369 } }),
      },
      'Protecting 1,369',
      'st-open',
    ],
    [
      'unprotected',
      {
        phase: 'protecting',
        tradingsymbol: 'RELIANCE',
        entry: { ...base.entry!, status: 'filled', filled: 2000 },
        unprotected: { quantity: 1369, why: 'Stop-loss not placed' },
      },
      'UNPROTECTED 1,369: Stop-loss not placed',
      'st-rejected',
    ],
    ['after a restart', { phase: 'protecting', restoring: true }, 'Reading back after a restart…', 'st-open'],
    [
      'done by the target',
      {
        phase: 'done',
        outcome: 'Target filled at ₹1530',
        target: child({ status: 'filled', filled: 50, averagePrice: 1530 }),
      },
      'Done: Target filled at 1,530.00',
      'st-complete',
    ],
    ['cancelled', { phase: 'done', outcome: 'Cancelled by you' }, 'Done: Cancelled by you', 'st-cancelled'],
    [
      'failed',
      { phase: 'done', outcome: 'Entry rejected: Insufficient funds' },
      'Done: Entry rejected: Insufficient funds',
      'st-rejected',
    ],
  ])('%s', (_, over, state, badge) => {
    const b = { ...base, ...over };
    expect(bracketState(b)).toBe(state);
    expect(bracketBadge(b)).toBe(badge);
  });

  it('the header names each unprotected position: "UNPROTECTED · RELIANCE 1,369"; a done one is not', () => {
    const loud = {
      ...base,
      phase: 'protecting' as const,
      tradingsymbol: 'RELIANCE',
      unprotected: { quantity: 1369, why: 'x' },
    };
    const list = unprotectedBrackets([loud, { ...loud, id: 'bdone', phase: 'done' }, base]);
    expect(list.map(unprotectedLabel)).toEqual(['UNPROTECTED · RELIANCE 1,369']);
  });

  it('a running bracket with a problem is marked as one', () => {
    expect(bracketBadge({ ...base, phase: 'protecting', problem: 'Target not placed: market closed' })).toBe(
      'st-rejected',
    );
  });

  it('says each order in a few words, and how the stop trails', () => {
    expect(childText(child({ status: 'working' }), 0.05)).toBe('SL-M 1,480.00 · working');
    expect(childText(child({ status: 'filled', filled: 50, averagePrice: 1479.95 }), 0.05)).toBe(
      'SL-M 1,480.00 · filled 50 at 1,479.95',
    );
    expect(childText(child({ status: 'working', filled: 20 }), 0.05)).toBe('SL-M 1,480.00 · working · 20 filled');
    expect(childText(null, 0.05)).toBe('–');
    expect(trailText({ ...base, trail: { by: 'percent', amount: 1 } })).toBe('trails 1%');
    expect(trailText({ ...base, trail: { by: 'points', amount: 5 }, trailMoves: 2 })).toBe('trails ₹5 · moved 2×');
    expect(trailText(base)).toBe('');
  });
});
