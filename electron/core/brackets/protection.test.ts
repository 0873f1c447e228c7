import { describe, expect, it } from 'vitest';
import { decideProtection, type ExitView, type ProtectionInput } from './protection';

/**
 * The protection controller as a table (docs/brackets.md §The controller): the position main
 * knows × the exits at the broker × what the protection declares → the actions, whether the
 * position is UNPROTECTED and whether the protection is done. Actions read `place stop 10`,
 * `resize target 5`, `cancel stop`.
 */

const working = (quantity: number, filled = 0, more: Partial<ExitView> = {}): ExitView => ({
  status: 'working',
  quantity,
  filled,
  busy: false,
  failed: false,
  ...more,
});
const ended = (status: ExitView['status'], quantity: number, filled = 0, failed = false): ExitView => ({
  status,
  quantity,
  filled,
  busy: false,
  failed,
});

const base: ProtectionInput = {
  side: 'BUY',
  protectedQty: 10,
  entryLive: false,
  cancelRequested: false,
  held: 10,
  otherReducing: 0,
  stop: working(10),
  target: working(10),
};

interface Row {
  readonly name: string;
  readonly given: Partial<ProtectionInput>;
  readonly actions: readonly string[];
  readonly unprotected?: string | null;
  readonly done?: string | null;
}

const rows: Row[] = [
  { name: 'both exits cover what is held: nothing to do', given: {}, actions: [] },
  {
    name: 'the entry filled: the stop-loss is placed first',
    given: { stop: ended('planned', 10), target: ended('planned', 10) },
    actions: ['place stop 10'],
    unprotected: '10 Stop-loss not placed yet',
  },
  {
    name: 'the target waits while the stop is being placed (the stop first when only one is taken)',
    given: { stop: { ...working(10), status: 'placing' }, target: ended('planned', 10) },
    actions: [],
  },
  {
    name: '… the stop working: then the target',
    given: { target: ended('planned', 10) },
    actions: ['place target 10'],
    unprotected: null,
  },
  {
    name: 'a manual exit sold 5 of 10: both exits shrink to what is held',
    given: { held: 5 },
    actions: ['resize stop 5', 'resize target 5'],
  },
  {
    name: 'another working order reduces 4 of the 10: the exits cover 6',
    given: { otherReducing: 4 },
    actions: ['resize stop 6', 'resize target 6'],
  },
  {
    name: 'the position is unknown: the exits stay what the protection covers',
    given: { held: null, otherReducing: null },
    actions: [],
  },
  {
    name: 'the position is flat (closed outside): the exits are cancelled, nothing is left to protect',
    given: { held: 0 },
    actions: ['cancel stop', 'cancel target'],
    unprotected: null,
  },
  {
    name: 'the position reversed: exits that would add to it are cancelled',
    given: { held: -10 },
    actions: ['cancel stop', 'cancel target'],
  },
  {
    name: 'flat and nothing live: done (the position is closed)',
    given: { held: 0, stop: ended('cancelled', 10), target: ended('cancelled', 10) },
    actions: [],
    done: 'flat',
  },
  {
    name: 'the target filled in part (3 of 10): the stop shrinks to 7, never cancelled',
    given: { protectedQty: 7, held: 7, target: working(10, 3) },
    actions: ['resize stop 7'],
  },
  {
    name: 'the target filled in full: the stop is cancelled',
    given: { protectedQty: 0, held: 0, target: ended('filled', 10, 10) },
    actions: ['cancel stop'],
    done: null,
  },
  {
    name: 'the target filled, read shows it before the stream: the stop is cancelled even with the position unknown',
    given: { protectedQty: 0, held: null, otherReducing: null, target: ended('filled', 10, 10) },
    actions: ['cancel stop'],
  },
  {
    name: 'the stop filled 631 while the entry filled 2,000: a new stop for the 1,369 left, the target raised',
    given: { protectedQty: 1369, held: 1369, stop: ended('filled', 631, 631), target: working(631) },
    actions: ['place stop 1369'],
    unprotected: '1369 Stop-loss filled for less than is held',
  },
  {
    name: '… the new stop working: the target is raised to cover 1,369',
    given: { protectedQty: 1369, held: 1369, stop: working(1369), target: working(631) },
    actions: ['resize target 1369'],
    unprotected: null,
  },
  {
    name: 'the stop was not placed (an outage): placed again while the position is held, UNPROTECTED meanwhile',
    given: { stop: ended('not_placed', 10, 0, true), target: ended('not_placed', 10, 0, true) },
    actions: ['place stop 10'],
    unprotected: '10 Stop-loss not placed',
  },
  {
    name: 'a not-placed stop whose retry is not due yet: nothing sent, still UNPROTECTED',
    given: { stop: { ...ended('not_placed', 10, 0, true), busy: true }, target: ended('not_placed', 10) },
    actions: [],
    unprotected: '10 Stop-loss not placed',
  },
  {
    name: 'the stop rejected: placed again, UNPROTECTED until it works',
    given: { stop: ended('rejected', 10), target: working(10) },
    actions: ['place stop 10'],
    unprotected: '10 Stop-loss rejected',
  },
  {
    name: 'the target refused a raise to 3,000: it stays 172, the stop covers, no alarm',
    given: { protectedQty: 3000, held: 3000, stop: working(3000), target: working(172, 0, { failed: true }) },
    actions: ['resize target 3000'],
    unprotected: null,
  },
  {
    name: 'the stop refused a raise: the rest is UNPROTECTED',
    given: { protectedQty: 3000, held: 3000, stop: working(172, 0, { failed: true }), target: working(172) },
    actions: ['resize stop 3000'],
    unprotected: '2828 Stop-loss covers 172 of 3000: not resized',
  },
  {
    name: 'a stop no longer listed by the broker (cancelled at the close): placed again for what is held',
    given: { protectedQty: 500, held: 500, stop: ended('cancelled', 500), target: ended('cancelled', 500) },
    actions: ['place stop 500'],
    unprotected: '500 Stop-loss cancelled',
  },
  {
    name: 'the entry still working, nothing filled: nothing placed, not done',
    given: { protectedQty: 0, held: 0, entryLive: true, stop: ended('planned', 10), target: ended('planned', 10) },
    actions: [],
    done: null,
  },
  {
    name: 'cancelled by the trader: working exits cancelled, then done',
    given: { cancelRequested: true },
    actions: ['cancel stop', 'cancel target'],
    done: null,
  },
  {
    name: 'cancelled by the trader, nothing live: done',
    given: { cancelRequested: true, stop: ended('cancelled', 10), target: ended('cancelled', 10) },
    actions: [],
    done: 'cancelled',
  },
  {
    name: 'a short protected: the exits buy and follow the short held',
    given: { side: 'SELL', held: -6 },
    actions: ['resize stop 6', 'resize target 6'],
  },
];

describe('the protection controller: position × exits × spec → actions', () => {
  it.each(rows)('$name', (row) => {
    const d = decideProtection({ ...base, ...row.given });
    const said = d.actions.map((a) => (a.t === 'cancel' ? `cancel ${a.exit}` : `${a.t} ${a.exit} ${a.quantity}`));
    expect(said).toEqual(row.actions);
    if (row.unprotected !== undefined)
      expect(d.unprotected ? `${d.unprotected.quantity} ${d.unprotected.why}` : null).toBe(row.unprotected);
    if (row.done !== undefined) expect(d.done).toBe(row.done);
  });
});
