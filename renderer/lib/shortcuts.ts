/**
 * Every keyboard binding of the desk, in one registry (docs/desk.md §Keyboard): the handlers ask
 * it which shortcut a key press is, and the shortcuts sheet lists it, so the sheet can never
 * promise a key that does nothing or miss one that does something.
 */

/** Where a binding applies: anywhere, or on a focused row of one list (or the price ladder). */
export type ShortcutScope = 'anywhere' | 'watchlist' | 'orders' | 'ladder';

/** What a handler needs of a key press (a DOM `KeyboardEvent` or React's). */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** Absent reads as not held (Shift tells Ctrl+K from the kill switch's Ctrl+Shift+K). */
  readonly shiftKey?: boolean;
}

/** One binding: its id, the keys as the sheet shows them, what it does, and where. */
export interface Shortcut {
  readonly id: string;
  readonly scope: ShortcutScope;
  readonly keys: readonly string[];
  readonly does: string;
  readonly matches: (e: KeyPress) => boolean;
}

/** A plain key (no Ctrl, ⌘ or Alt), compared case-insensitively for letters. */
const plain =
  (...keys: string[]) =>
  (e: KeyPress): boolean =>
    !e.ctrlKey && !e.metaKey && !e.altKey && keys.some((k) => k.toLowerCase() === e.key.toLowerCase());

/** Ctrl+key, or ⌘+key on a Mac (without Shift). */
const command =
  (key: string) =>
  (e: KeyPress): boolean =>
    (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === key;

/** Ctrl+Shift+key, or ⌘⇧+key on a Mac. */
const commandShift =
  (key: string) =>
  (e: KeyPress): boolean =>
    (e.ctrlKey || e.metaKey) && !e.altKey && e.shiftKey === true && e.key.toLowerCase() === key;

/** Alt+key (Option on a Mac), without Ctrl or ⌘. */
const alt =
  (key: string) =>
  (e: KeyPress): boolean =>
    e.altKey && !e.ctrlKey && !e.metaKey && e.key === key;

/** A plain key as the sheet shows it and as a press matches it, written once for every list it works in. */
const plainKey = (shown: string, pressed: string) => ({ keys: [shown], matches: plain(pressed) });
const KEY_UP = plainKey('↑', 'ArrowUp');
const KEY_DOWN = plainKey('↓', 'ArrowDown');
const KEY_DEL = plainKey('Del', 'Delete');
const KEY_B = plainKey('B', 'b');
const KEY_S = plainKey('S', 's');
const KEY_ENTER = plainKey('Enter', 'Enter');

/** The registry, in the order the sheet lists it. */
export const SHORTCUTS = [
  {
    id: 'palette',
    scope: 'anywhere',
    keys: ['Ctrl+K'],
    does: 'Find an instrument or an action',
    matches: command('k'),
  },
  {
    id: 'kill-switch',
    scope: 'anywhere',
    keys: ['Ctrl+Shift+K'],
    does: 'Kill switch: cancel every working order (asks first)',
    matches: commandShift('k'),
  },
  { id: 'shortcuts', scope: 'anywhere', keys: ['?'], does: 'Show these shortcuts', matches: plain('?') },
  {
    id: 'next-window',
    scope: 'anywhere',
    keys: ['Ctrl+`'],
    does: 'Go to the next window of the desk',
    matches: command('`'),
  },
  { id: 'buy', scope: 'anywhere', keys: ['F1'], does: 'Buy ticket for the selected instrument', matches: plain('F1') },
  {
    id: 'sell',
    scope: 'anywhere',
    keys: ['F2'],
    does: 'Sell ticket for the selected instrument',
    matches: plain('F2'),
  },
  {
    id: 'close-ticket',
    scope: 'anywhere',
    keys: ['Esc'],
    does: 'Close the ticket (or the open dialog)',
    matches: plain('Escape'),
  },
  { id: 'watch-next', scope: 'watchlist', does: 'Next instrument', ...KEY_DOWN },
  { id: 'watch-previous', scope: 'watchlist', does: 'Previous instrument', ...KEY_UP },
  { id: 'watch-buy', scope: 'watchlist', does: 'Buy ticket for this instrument', ...KEY_B },
  { id: 'watch-sell', scope: 'watchlist', does: 'Sell ticket for this instrument', ...KEY_S },
  {
    id: 'watch-move-up',
    scope: 'watchlist',
    keys: ['Alt+↑'],
    does: 'Move this instrument up the list',
    matches: alt('ArrowUp'),
  },
  {
    id: 'watch-move-down',
    scope: 'watchlist',
    keys: ['Alt+↓'],
    does: 'Move this instrument down the list',
    matches: alt('ArrowDown'),
  },
  { id: 'watch-remove', scope: 'watchlist', does: 'Remove from the watchlist', ...KEY_DEL },
  { id: 'order-next', scope: 'orders', does: 'Next order', ...KEY_DOWN },
  { id: 'order-previous', scope: 'orders', does: 'Previous order', ...KEY_UP },
  { id: 'order-history', scope: 'orders', does: 'History and timeline', ...KEY_ENTER },
  { id: 'order-modify', scope: 'orders', keys: ['M'], does: 'Modify the working order', matches: plain('m') },
  { id: 'order-cancel', scope: 'orders', does: 'Cancel the working order', ...KEY_DEL },
  { id: 'ladder-up', scope: 'ladder', does: 'Select the price a tick up', ...KEY_UP },
  { id: 'ladder-down', scope: 'ladder', does: 'Select the price a tick down', ...KEY_DOWN },
  { id: 'ladder-buy', scope: 'ladder', does: 'Buy at the selected price (a stop above the offer)', ...KEY_B },
  { id: 'ladder-sell', scope: 'ladder', does: 'Sell at the selected price (a stop below the bid)', ...KEY_S },
  { id: 'ladder-cancel', scope: 'ladder', does: 'Cancel your orders at the selected price', ...KEY_DEL },
  { id: 'ladder-centre', scope: 'ladder', keys: ['C'], does: 'Centre on the last price', matches: plain('c') },
] as const satisfies readonly Shortcut[];

/** The id of any binding. */
export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** The bindings of one scope. */
export type ScopedId<S extends ShortcutScope> = IdIn<(typeof SHORTCUTS)[number], S>;
type IdIn<E, S> = E extends { readonly scope: S; readonly id: infer I } ? I : never;

/** Which binding of `scope` a key press is, or null. */
export function shortcutFor<S extends ShortcutScope>(scope: S, e: KeyPress): ScopedId<S> | null {
  const hit = SHORTCUTS.find((s) => s.scope === scope && s.matches(e));
  return hit ? (hit.id as ScopedId<S>) : null;
}

/** The keys of a binding as the sheet and the palette show them ("Ctrl+K"). */
export function keysOf(id: ShortcutId): string {
  return SHORTCUTS.find((s) => s.id === id)?.keys.join(' / ') ?? '';
}

/** True when a key press is typing into a field (a plain-key shortcut must not steal it). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}
