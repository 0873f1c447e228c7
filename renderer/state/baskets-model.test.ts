import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '@shared/domain/order';
import {
  basketCleared,
  basketDeleted,
  basketLoaded,
  basketNameProblem,
  basketSaved,
  legAdded,
  legRemoved,
  MAX_LEGS,
  NO_BASKETS,
} from './baskets-model';

const order = (tradingsymbol: string, quantity = 75): OrderRequest => ({
  exchange: 'NFO',
  tradingsymbol,
  transactionType: 'BUY',
  quantity,
  orderType: 'MARKET',
  product: 'NRML',
  validity: 'DAY',
});
const symbols = (legs: readonly OrderRequest[]): string[] => legs.map((l) => l.tradingsymbol);

describe('baskets', () => {
  it('adds legs in order and removes the one asked for', () => {
    const b = legAdded(legAdded(legAdded(NO_BASKETS, order('A')), order('B')), order('C'));
    expect(symbols(legRemoved(b, 1).legs)).toEqual(['A', 'C']);
  });

  it(`holds at most ${MAX_LEGS} legs`, () => {
    let b = NO_BASKETS;
    for (let n = 0; n < MAX_LEGS + 3; n++) b = legAdded(b, order(`L${n}`));
    expect(b.legs).toHaveLength(MAX_LEGS);
  });

  it('saves the legs under a name, replaces a basket of the same name in any case, and loads it back', () => {
    const first = basketSaved(legAdded(NO_BASKETS, order('A')), 'Straddle');
    const second = basketSaved(legAdded(basketCleared(first), order('B')), ' straddle ');
    expect(second.saved.map((s) => [s.name, symbols(s.legs)])).toEqual([['straddle', ['B']]]);
    const loaded = basketLoaded(basketCleared(second), 'straddle');
    expect(symbols(loaded.legs)).toEqual(['B']);
    expect(basketDeleted(loaded, 'straddle').saved).toEqual([]);
  });

  it('saves nothing without a usable name or without legs', () => {
    expect(basketNameProblem('  ')).toBe('Give the basket a name');
    expect(basketSaved(legAdded(NO_BASKETS, order('A')), ' ').saved).toEqual([]);
    expect(basketSaved(NO_BASKETS, 'Empty').saved).toEqual([]);
  });
});
