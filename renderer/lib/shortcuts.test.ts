import { describe, expect, it } from 'vitest';
import { SHORTCUTS, shortcutFor, type KeyPress, type ShortcutScope } from './shortcuts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

/** Keys a trader may press, to probe the registry with. */
const PROBES: KeyPress[] = [
  ...['ArrowUp', 'ArrowDown', 'Enter', 'Escape', 'Delete', 'F1', 'F2', '?', 'b', 'B', 's', 'm', 'k', 'c'].map((k) =>
    press(k),
  ),
  press('k', { ctrlKey: true }),
  press('k', { metaKey: true }),
  press('K', { ctrlKey: true, shiftKey: true }),
];

describe('the shortcuts registry', () => {
  it('gives every binding its own id', () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never binds one key press to two actions where both apply (a scope and "anywhere")', () => {
    for (const scope of ['watchlist', 'orders', 'ladder'] as const satisfies readonly ShortcutScope[]) {
      for (const p of PROBES) {
        const hits = SHORTCUTS.filter((s) => (s.scope === scope || s.scope === 'anywhere') && s.matches(p));
        expect(
          hits.map((h) => h.id),
          `${scope}: ${p.key}`,
        ).toHaveLength(Math.min(hits.length, 1));
      }
    }
  });

  it('Ctrl+Shift+K (⌘⇧K) is the kill switch, not the palette', () => {
    expect(shortcutFor('anywhere', press('K', { ctrlKey: true, shiftKey: true }))).toBe('kill-switch');
    expect(shortcutFor('anywhere', press('K', { metaKey: true, shiftKey: true }))).toBe('kill-switch');
    expect(shortcutFor('anywhere', press('K', { shiftKey: true }))).toBeNull();
  });

  it('opens the palette on Ctrl+K and ⌘K, but a plain K does nothing', () => {
    expect(shortcutFor('anywhere', press('k', { ctrlKey: true }))).toBe('palette');
    expect(shortcutFor('anywhere', press('K', { metaKey: true }))).toBe('palette');
    expect(shortcutFor('anywhere', press('k'))).toBeNull();
  });

  it('reads B and S on a watchlist row in either case, but not with Ctrl (the browser’s own keys)', () => {
    expect(shortcutFor('watchlist', press('B'))).toBe('watch-buy');
    expect(shortcutFor('watchlist', press('s'))).toBe('watch-sell');
    expect(shortcutFor('watchlist', press('b', { ctrlKey: true }))).toBeNull();
  });

  it('cancels an order on Del and modifies it on M, only on an order row', () => {
    expect(shortcutFor('orders', press('Delete'))).toBe('order-cancel');
    expect(shortcutFor('orders', press('m'))).toBe('order-modify');
    expect(shortcutFor('watchlist', press('m'))).toBeNull();
  });
});
