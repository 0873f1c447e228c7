import { describe, expect, it } from 'vitest';
import type { Bracket, BracketRequest, TrailSpec } from '@shared/domain/bracket';
import type { Order, OrderStatus } from '@shared/domain/order';
import { anOrder } from '@shared/testing/order-fixtures';
import { createBracket, step, type BracketAction, type BracketEvent } from './bracket-machine';
import { bracketRefs } from './bracket-refs';
import { infyBracket, infyProtect } from '../testing/bracket-requests';

/**
 * The bracket state machine as a table (docs/brackets.md §States): each row starts a bracket,
 * feeds it events one by one, and states the actions each event calls for and where the
 * bracket ends. Actions read `place stop SELL 30 SL-M@95`, `modify stop trigger 97.5`,
 * `cancel target`.
 */

const ID = 'bTESTTESTTESTTEST';
const REFS = bracketRefs(ID);
const INFY = { instrumentToken: 408065, instrumentType: 'EQ' as const, tickSize: 0.05 };

/** A bracket on INFY, an entry of `quantity` at LIMIT 100 with its exits 5 behind and 10 ahead; `legs` replace them. */
function entryRequest(side: 'BUY' | 'SELL', quantity: number, legs: Partial<BracketRequest> = {}): BracketRequest {
  const long = side === 'BUY';
  const request = infyBracket(quantity, {
    entry: { transactionType: side, orderType: 'LIMIT', price: 100 },
    stop: long ? 95 : 105,
    target: long ? 110 : 90,
  });
  return { ...request, ...legs } as BracketRequest;
}

/** A broker report of the bracket's order in `role`. */
function report(
  role: 'entry' | 'stop' | 'target',
  status: OrderStatus,
  filled: number,
  extra: Partial<Order> = {},
): BracketEvent {
  return {
    t: 'order',
    order: anOrder({
      tradingsymbol: 'INFY',
      quantity: 100,
      orderId: `o-${role}`,
      clientOrderId: REFS[role],
      status,
      filledQuantity: filled,
      averagePrice: filled > 0 ? (extra.averagePrice ?? 100) : 0,
      ...extra,
    }),
  };
}

function describeAction(a: BracketAction): string {
  if (a.t === 'place') {
    const o = a.order;
    const at = o.orderType === 'LIMIT' ? `@${o.price}` : `@${o.triggerPrice}`;
    return `place ${a.child} ${o.transactionType} ${o.quantity} ${o.orderType}${at}`;
  }
  if (a.t === 'modify') {
    const parts = Object.entries(a.changes).map(([k, v]) => `${k === 'triggerPrice' ? 'trigger' : k} ${String(v)}`);
    return `modify ${a.child} ${parts.join(' ')}`;
  }
  return `cancel ${a.child}`;
}

interface Row {
  readonly name: string;
  readonly request: BracketRequest;
  /** What the bracket's creation calls for. */
  readonly created: readonly string[];
  /** Each event and the actions it calls for. */
  readonly events: ReadonlyArray<readonly [BracketEvent, readonly string[]]>;
  readonly phase: Bracket['phase'];
  readonly outcome?: RegExp;
  readonly problem?: RegExp | null;
  readonly check?: (b: Bracket) => void;
  /** Starts as a bracket read back from the journal after a restart. */
  readonly restoring?: boolean;
}

const placed = (child: 'entry' | 'stop' | 'target'): BracketEvent => ({
  t: 'placed',
  child,
  orderId: `o-${child}`,
  status: 'OPEN',
});
const tick = (price: number): BracketEvent => ({ t: 'tick', price });
const trail = (t: TrailSpec): Partial<BracketRequest> => ({ trail: t });

/** A row's request, an entry of `quantity` at LIMIT 100 with its exits at 95 and 110, and what its creation calls for. */
const entering = (
  side: 'BUY' | 'SELL',
  quantity: number,
  legs: Partial<BracketRequest> = {},
): Pick<Row, 'request' | 'created'> => ({
  request: entryRequest(side, quantity, legs),
  created: [`place entry ${side} ${quantity} LIMIT@100`],
});

/** A long entry filling `quantity` at once, then its stop-loss and target placed: the way into protecting. */
const protecting = (quantity: number): Row['events'] => [
  [report('entry', 'COMPLETE', quantity), [`place stop SELL ${quantity} SL-M@95`]],
  [placed('stop'), [`place target SELL ${quantity} LIMIT@110`]],
  [placed('target'), []],
];

const ROWS: readonly Row[] = [
  {
    name: 'an entry waits; nothing is placed before it fills',
    ...entering('BUY', 100),
    events: [
      [placed('entry'), []],
      [report('entry', 'OPEN', 0), []],
    ],
    phase: 'waiting_entry',
  },
  {
    name: 'a partial fill is protected for what filled, and the exits grow with the fills',
    ...entering('BUY', 100),
    events: [
      [placed('entry'), []],
      [report('entry', 'OPEN', 30), ['place stop SELL 30 SL-M@95']],
      [placed('stop'), ['place target SELL 30 LIMIT@110']],
      [placed('target'), []],
      [report('entry', 'COMPLETE', 100), ['modify stop quantity 100']],
      [{ t: 'modified', child: 'stop', changes: { quantity: 100 }, trail: false }, ['modify target quantity 100']],
      [{ t: 'modified', child: 'target', changes: { quantity: 100 }, trail: false }, []],
    ],
    phase: 'protecting',
    check: (b) => expect([b.stop?.order.quantity, b.target?.order.quantity]).toEqual([100, 100]),
  },
  {
    name: 'the target fills: the stop-loss is cancelled, then it is done',
    ...entering('BUY', 100),
    events: [
      ...protecting(100),
      [report('target', 'COMPLETE', 100, { averagePrice: 110 }), ['cancel stop']],
      [{ t: 'cancel-sent', child: 'stop', status: 'CANCELLED' }, []],
    ],
    phase: 'done',
    outcome: /^Target filled at ₹110$/,
  },
  {
    name: 'the stop-loss fills while the entry still works: the target and the rest of the entry are cancelled',
    ...entering('BUY', 100),
    events: [
      [report('entry', 'OPEN', 40), ['place stop SELL 40 SL-M@95']],
      [placed('stop'), ['place target SELL 40 LIMIT@110']],
      [placed('target'), []],
      [report('stop', 'COMPLETE', 40, { averagePrice: 95 }), ['cancel entry', 'cancel target']],
      [report('target', 'CANCELLED', 0), []],
      [report('entry', 'CANCELLED', 40), []],
    ],
    phase: 'done',
    outcome: /^Stop-loss filled at ₹95$/,
  },
  {
    name: 'a short bracket: the exits buy, the stop above and the target below',
    ...entering('SELL', 50),
    events: [
      [report('entry', 'COMPLETE', 50), ['place stop BUY 50 SL-M@105']],
      [placed('stop'), ['place target BUY 50 LIMIT@90']],
    ],
    phase: 'protecting',
  },
  {
    name: 'the entry is rejected with nothing filled: done, nothing placed',
    ...entering('BUY', 100),
    events: [[report('entry', 'REJECTED', 0, { statusMessage: 'Insufficient funds' }), []]],
    phase: 'done',
    outcome: /^Entry rejected: Insufficient funds$/,
  },
  {
    name: 'the entry is refused (nothing created): done',
    ...entering('BUY', 100),
    events: [[{ t: 'refused', child: 'entry', message: 'Not sent: could not reach the broker' }, []]],
    phase: 'done',
    outcome: /^Entry not placed: Not sent/,
  },
  {
    name: 'a refused stop-loss is a problem on screen, UNPROTECTED, and tried again while the position is held',
    ...entering('BUY', 100),
    events: [
      [report('entry', 'COMPLETE', 100), ['place stop SELL 100 SL-M@95']],
      [{ t: 'refused', child: 'stop', message: 'Order value exceeds your limit' }, []],
    ],
    phase: 'protecting',
    problem: /^Stop-loss not placed: Order value exceeds your limit; trying again$/,
    check: (b) => {
      expect(b.unprotected).toEqual({ quantity: 100, why: 'Stop-loss not placed' });
      const again = step(b, { t: 'timer' }, 10_000_000);
      expect(again.actions.map(describeAction)).toEqual(['place stop SELL 100 SL-M@95']);
      // A new order under the role's next reference: the refused one created nothing.
      expect(again.bracket.stop?.ref).not.toBe(REFS.stop);
      expect(again.bracket.unprotected).toEqual({ quantity: 100, why: 'Stop-loss not placed yet: trying again' });
    },
  },
  {
    name: 'cancelled by the trader while waiting: the entry is cancelled, then done',
    ...entering('BUY', 100),
    events: [
      [placed('entry'), []],
      [{ t: 'cancel' }, ['cancel entry']],
      [{ t: 'cancel-sent', child: 'entry', status: 'CANCELLED' }, []],
    ],
    phase: 'done',
    outcome: /^Cancelled by you$/,
  },
  {
    name: 'a long trailing stop follows the best price by ₹2 and never moves back',
    ...entering('BUY', 10, trail({ by: 'points', amount: 2 })),
    events: [
      [report('entry', 'COMPLETE', 10, { averagePrice: 100 }), ['place stop SELL 10 SL-M@95']],
      [placed('stop'), ['place target SELL 10 LIMIT@110', 'modify stop trigger 98']],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 98 }, trail: true }, []],
      [placed('target'), []],
      [tick(101), ['modify stop trigger 99']],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 99 }, trail: true }, []],
      [tick(100.5), []],
      [tick(99.2), []],
      [tick(101.02), []],
      [tick(103.07), ['modify stop trigger 101.05']],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 101.05 }, trail: true }, []],
    ],
    phase: 'protecting',
    check: (b) => {
      expect(b.stop?.order.triggerPrice).toBe(101.05);
      expect(b.trailMoves).toBe(3);
    },
  },
  {
    name: 'a short trailing stop by 1%: down only, rounded away from the price',
    ...entering('SELL', 10, { ...trail({ by: 'percent', amount: 1 }), target: null }),
    events: [
      [report('entry', 'COMPLETE', 10, { averagePrice: 100 }), ['place stop BUY 10 SL-M@105']],
      [placed('stop'), ['modify stop trigger 101']],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 101 }, trail: true }, []],
      [tick(97.3), ['modify stop trigger 98.3']],
      [tick(96), []],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 98.3 }, trail: true }, ['modify stop trigger 97']],
      [{ t: 'modified', child: 'stop', changes: { triggerPrice: 97 }, trail: true }, []],
      [tick(99), []],
    ],
    phase: 'protecting',
    check: (b) => expect(b.stop?.order.triggerPrice).toBe(97),
  },
  {
    name: 'a modification that fails is tried again when its wait is over',
    ...entering('BUY', 10, trail({ by: 'points', amount: 5 })),
    events: [
      ...protecting(10),
      [tick(102), ['modify stop trigger 97']],
      [{ t: 'modify-failed', child: 'stop', message: 'The broker failed (502)', final: false }, []],
      [{ t: 'timer' }, ['modify stop trigger 97']],
    ],
    phase: 'protecting',
  },
  {
    name: 'after a restart nothing is done until the orders were read back',
    request: entryRequest('BUY', 10),
    restoring: true,
    created: ['place entry BUY 10 LIMIT@100'],
    events: [
      [{ t: 'timer' }, []],
      [report('entry', 'COMPLETE', 10), []],
      [{ t: 'restored' }, ['place stop SELL 10 SL-M@95']],
    ],
    phase: 'protecting',
  },
  {
    name: 'a late report of a working order never undoes a fill',
    ...entering('BUY', 10),
    events: [
      [report('entry', 'COMPLETE', 10), ['place stop SELL 10 SL-M@95']],
      [report('entry', 'OPEN', 0), []],
    ],
    phase: 'protecting',
    check: (b) => expect([b.entry?.status, b.entry?.filled]).toEqual(['filled', 10]),
  },
  {
    name: 'both exits cancelled elsewhere while the position is held: placed again, UNPROTECTED until the stop works',
    ...entering('BUY', 10),
    events: [
      ...protecting(10),
      [report('stop', 'CANCELLED', 0), ['place stop SELL 10 SL-M@95']],
      [report('target', 'CANCELLED', 0), []],
    ],
    phase: 'protecting',
    problem: /^Target was cancelled outside the bracket$/,
  },
  {
    name: 'an exit the broker no longer lists (cancelled at the close) is not working: placed again',
    ...entering('BUY', 10),
    events: [
      ...protecting(10),
      [{ t: 'gone', child: 'stop', message: 'No longer listed by the broker' }, ['place stop SELL 10 SL-M@95']],
      [{ t: 'gone', child: 'target', message: 'No longer listed by the broker' }, []],
    ],
    phase: 'protecting',
    problem: /^Target ended: No longer listed by the broker$/,
  },
  {
    name: 'a partial fill, then a gap: the stop filled 631 as the entry filled 2,000: the 1,369 left is protected again',
    ...entering('BUY', 2000),
    events: [
      [placed('entry'), []],
      [report('entry', 'OPEN', 631), ['place stop SELL 631 SL-M@95']],
      [placed('stop'), ['place target SELL 631 LIMIT@110']],
      [placed('target'), []],
      [report('entry', 'COMPLETE', 2000), ['modify stop quantity 2000']],
      [report('stop', 'COMPLETE', 631, { averagePrice: 95 }), []],
      [{ t: 'modify-failed', child: 'stop', message: 'The order is complete', final: true }, []],
      [{ t: 'timer' }, ['place stop SELL 1369 SL-M@95']],
    ],
    phase: 'protecting',
    check: (b) => {
      // A new stop-loss under the role's next reference, for what is still held.
      expect([b.stop?.gen, b.stop?.status, b.stop?.order.quantity]).toEqual([1, 'placing', 1369]);
      expect(b.target?.order.quantity).toBe(631);
    },
  },
  {
    name: 'a manual exit sold 5 of the 10 protected: both exits shrink to 5; the target fills 5: done, not reversed',
    ...entering('BUY', 10),
    events: [
      ...protecting(10),
      [{ t: 'position', held: 5, otherReducing: 0 }, ['modify stop quantity 5', 'modify target quantity 5']],
      [{ t: 'modified', child: 'stop', changes: { quantity: 5 }, trail: false }, []],
      [{ t: 'modified', child: 'target', changes: { quantity: 5 }, trail: false }, []],
      [report('target', 'COMPLETE', 5, { quantity: 5, averagePrice: 110 }), ['cancel stop']],
      [{ t: 'position', held: null, otherReducing: null }, []],
      [{ t: 'cancel-sent', child: 'stop', status: 'CANCELLED' }, []],
    ],
    phase: 'done',
    outcome: /^Target filled at ₹110: nothing left held$/,
  },
  {
    name: 'the target filled 172 of a 3,000 position whose target raise was refused: the stop stays for 2,828',
    ...entering('BUY', 3000),
    events: [
      [report('entry', 'OPEN', 172), ['place stop SELL 172 SL-M@95']],
      [placed('stop'), ['place target SELL 172 LIMIT@110']],
      [placed('target'), []],
      [report('entry', 'COMPLETE', 3000), ['modify stop quantity 3000']],
      [{ t: 'modified', child: 'stop', changes: { quantity: 3000 }, trail: false }, ['modify target quantity 3000']],
      [{ t: 'modify-failed', child: 'target', message: 'Insufficient funds', final: true }, []],
      [
        report('target', 'COMPLETE', 172, { quantity: 172, averagePrice: 110 }),
        ['modify stop quantity 2828', 'place target SELL 2828 LIMIT@110'],
      ],
    ],
    phase: 'protecting',
    problem: null,
    check: (b) => expect(b.unprotected).toBeNull(),
  },
  {
    name: 'protecting a position: the stop-loss first, then the target; a restart resends one never sent',
    request: infyProtect(20, { stop: 95, target: 110 }),
    created: ['place stop SELL 20 SL-M@95'],
    events: [
      [placed('stop'), ['place target SELL 20 LIMIT@110']],
      [{ t: 'unsent', child: 'target' }, ['place target SELL 20 LIMIT@110']],
    ],
    phase: 'protecting',
  },
];

describe('the bracket state machine', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const created = createBracket(
      { id: ID, request: row.request, requestId: null, instrument: INFY, refs: REFS },
      1_000,
    );
    expect(created.actions.map(describeAction)).toEqual(row.created);
    // A bracket read back from the journal at start waits for its orders to be read.
    let b = row.restoring ? { ...created.bracket, restoring: true } : created.bracket;
    let now = 1_000;
    for (const [event, want] of row.events) {
      now += 60_000; // every retry is due by the next event
      const s = step(b, event, now);
      expect(s.actions.map(describeAction), `after ${JSON.stringify(event).slice(0, 80)}`).toEqual(want);
      b = s.bracket;
    }
    expect(b.phase).toBe(row.phase);
    if (row.outcome) expect(b.outcome).toMatch(row.outcome);
    if (row.problem !== undefined)
      expect(b.problem ?? null).toEqual(row.problem === null ? null : expect.stringMatching(row.problem));
    row.check?.(b);
  });
});
