import { describe, expect, it } from 'vitest';
import type { KnownPosition, PositionKey } from '../known-positions';
import { BARRIER_MESSAGE, KillBarrier, type BarrierOrder } from './kill-barrier';

const KEY = { exchange: 'NSE', tradingsymbol: 'RELIANCE', product: 'MIS' } as const;

function known(quantity: number | null): (key: PositionKey) => KnownPosition {
  return (key) =>
    quantity === null
      ? { ...key, known: false, instrumentToken: 1, since: 0, why: 'no positions read yet' }
      : { ...key, known: true, instrumentToken: 1, quantity, asOf: 0, live: true };
}

function order(side: 'BUY' | 'SELL', quantity: number): BarrierOrder {
  return { ...KEY, transactionType: side, quantity };
}

describe('the kill switch barrier', () => {
  it('lets every order through until it is raised, and again once the trader re-arms', () => {
    const seen: Array<boolean> = [];
    const b = new KillBarrier({ knownPosition: known(0), reducingOnTheWay: () => 0, now: () => 5 });
    b.onChange((s) => seen.push(s !== null));
    expect(b.blocks(order('BUY', 1))).toBeNull();
    b.engage('run-1');
    expect(b.state()).toEqual({ since: 5, runId: 'run-1' });
    expect(b.blocks(order('BUY', 1))).toBe(BARRIER_MESSAGE);
    b.engage('run-2'); // a second kill switch keeps the first one's barrier
    expect(b.state()?.runId).toBe('run-1');
    b.rearm();
    expect(b.blocks(order('BUY', 1))).toBeNull();
    expect(seen).toEqual([true, false]);
  });

  it.each<[string, number | null, number, BarrierOrder, boolean]>([
    ['a sell of part of a long goes', 10, 0, order('SELL', 4), true],
    ['a sell of all of a long goes', 10, 0, order('SELL', 10), true],
    ['a sell past a long (it would reverse it) is refused', 10, 0, order('SELL', 11), false],
    ['a sell that would reverse it with the exits already on their way is refused', 10, 7, order('SELL', 4), false],
    ['a buy over a long (adds risk) is refused', 10, 0, order('BUY', 1), false],
    ['a buy that covers a short goes', -8, 0, order('BUY', 8), true],
    ['any order with nothing held is refused', 0, 0, order('SELL', 1), false],
    ['any order while the position is unknown is refused', null, 0, order('SELL', 1), false],
  ])('while up: %s', (_what, held, onTheWay, o, passes) => {
    const b = new KillBarrier({ knownPosition: known(held), reducingOnTheWay: () => onTheWay, now: () => 0 });
    b.engage('run');
    expect(b.blocks(o) === null).toBe(passes);
  });
});
