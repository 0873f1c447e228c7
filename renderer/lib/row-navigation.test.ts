import { describe, expect, it } from 'vitest';
import { focusRow, stepIndex, tabStop } from './row-navigation';

describe('stepIndex', () => {
  it('stops at either end instead of wrapping (a trader holding ↓ lands on the last row)', () => {
    expect(stepIndex(3, 2, 1)).toBe(2);
    expect(stepIndex(3, 0, -1)).toBe(0);
    expect(stepIndex(3, 1, 1)).toBe(2);
  });

  it('enters a list from outside at its first row going down and its last going up', () => {
    expect(stepIndex(4, -1, 1)).toBe(0);
    expect(stepIndex(4, -1, -1)).toBe(3);
    expect(stepIndex(0, -1, 1)).toBeNull();
  });
});

describe('tabStop', () => {
  it('is the preferred row while it is rendered, else the first rendered one (a list always has one)', () => {
    expect(tabStop(['a', 'b', 'c'], 'b')).toBe('b');
    expect(tabStop(['a', 'b', 'c'], 'z')).toBe('a'); // scrolled out of a virtualized list
    expect(tabStop(['a', 'b'], null)).toBe('a');
    expect(tabStop([], 'a')).toBeNull();
  });
});

describe('focusRow', () => {
  it('moves the focus to the next rendered row and skips rows that are not list rows', () => {
    document.body.innerHTML = `<table><tbody>
      <tr data-r="a" tabindex="0"></tr><tr class="pad"></tr><tr data-r="b" tabindex="-1"></tr>
    </tbody></table>`;
    const table = document.querySelector('table')!;
    const a = document.querySelector<HTMLElement>('[data-r="a"]')!;
    a.focus();
    const moved = focusRow(table, a, 'tr[data-r]', 1);
    expect(moved?.dataset.r).toBe('b');
    expect(document.activeElement).toBe(moved);
    expect(focusRow(table, moved!, 'tr[data-r]', 1)).toBeNull(); // already last: stays put
  });
});
