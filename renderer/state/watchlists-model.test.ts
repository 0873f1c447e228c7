import { describe, expect, it } from 'vitest';
import {
  activeList,
  firstLists,
  listAdded,
  listMoved,
  listRemoved,
  listRenamed,
  listShown,
  nameProblem,
  tokenAdded,
  tokenDropped,
  tokenMoved,
  tokenRemoved,
  type ProfileLists,
} from './watchlists-model';

const names = (p: ProfileLists): string[] => p.lists.map((l) => l.name);

describe('named watchlists', () => {
  it('starts a profile with one list holding the earlier single watchlist', () => {
    const p = firstLists([11, 12]);
    expect(names(p)).toEqual(['Watchlist 1']);
    expect(activeList(p).tokens).toEqual([11, 12]);
  });

  it('shows a new list at once, empty, and adds instruments to the shown list only', () => {
    const p = tokenAdded(listAdded(firstLists([11]), '  F&O  '), 21);
    expect(names(p)).toEqual(['Watchlist 1', 'F&O']);
    expect(activeList(p).tokens).toEqual([21]);
    expect(activeList(listShown(p, 'w1')).tokens).toEqual([11]);
  });

  it('refuses an empty, a too long or a duplicate name (in any case), naming why, and changes nothing', () => {
    const p = listAdded(firstLists([]), 'Banks');
    expect(nameProblem(p, '   ')).toBe('Give the list a name');
    expect(nameProblem(p, 'x'.repeat(25))).toBe('At most 24 characters');
    expect(nameProblem(p, 'banks')).toBe('There is already a list called banks');
    expect(listAdded(p, 'BANKS')).toBe(p);
    expect(listRenamed(p, 'w1', 'Banks')).toBe(p);
    expect(nameProblem(p, 'Banks', activeList(p).id)).toBeNull(); // its own name is fine
  });

  it('never deletes the last list, and shows the neighbour of a deleted shown list', () => {
    const one = firstLists([1]);
    expect(listRemoved(one, 'w1')).toBe(one);
    const three = listAdded(listAdded(one, 'B'), 'C'); // shows C
    const p = listRemoved(listShown(three, 'w2'), 'w2');
    expect(names(p)).toEqual(['Watchlist 1', 'C']);
    expect(activeList(p).name).toBe('C');
  });

  it('reorders lists and keeps them inside the order at either end', () => {
    const p = listAdded(listAdded(firstLists([]), 'B'), 'C');
    expect(names(listMoved(p, 'w3', -1))).toEqual(['Watchlist 1', 'C', 'B']);
    expect(names(listMoved(p, 'w1', -1))).toEqual(['Watchlist 1', 'B', 'C']);
  });

  it('moves a row with Alt+↑/↓ and by a drop onto another row, and holds an instrument once', () => {
    const p = firstLists([1, 2, 3, 4]);
    expect(activeList(tokenMoved(p, 3, -1)).tokens).toEqual([1, 3, 2, 4]);
    expect(activeList(tokenMoved(p, 4, 1)).tokens).toEqual([1, 2, 3, 4]);
    expect(activeList(tokenDropped(p, 4, 2)).tokens).toEqual([1, 4, 2, 3]);
    expect(activeList(tokenDropped(p, 1, 3)).tokens).toEqual([2, 3, 1, 4]);
    expect(activeList(tokenAdded(p, 2)).tokens).toEqual([1, 2, 3, 4]);
    expect(activeList(tokenRemoved(p, 2)).tokens).toEqual([1, 3, 4]);
  });

  it('gives a list added after a deletion an id no list has', () => {
    const p = listAdded(listRemoved(listAdded(listAdded(firstLists([]), 'B'), 'C'), 'w2'), 'D');
    expect(new Set(p.lists.map((l) => l.id)).size).toBe(3);
  });
});
