/**
 * Named watchlists, without React (docs/desk.md §Named watchlists): a profile's lists in the
 * trader's order, the one shown, and every change as a pure function of them, so the rules
 * (names unique and non-empty, never no list at all, an instrument once per list) are
 * unit-tested and the store only keeps the result.
 */

/** One named list of instruments, in the trader's order. */
export interface NamedList {
  readonly id: string;
  readonly name: string;
  readonly tokens: readonly number[];
}

/** A profile's lists, in the trader's order, and the one shown. */
export interface ProfileLists {
  readonly lists: readonly NamedList[];
  readonly active: string;
}

/** The longest name a list may have (it has to fit the panel's header). */
export const MAX_NAME = 24;
/** At most this many lists per profile, and instruments per list (the stream's 500 tokens are shared). */
export const MAX_LISTS = 20;
export const MAX_TOKENS = 200;

/** A profile's first list, holding `tokens`. */
export function firstLists(tokens: readonly number[]): ProfileLists {
  return { lists: [{ id: 'w1', name: 'Watchlist 1', tokens: [...tokens] }], active: 'w1' };
}

/** The list shown (the first if the active id is gone). */
export function activeList(p: ProfileLists): NamedList {
  return p.lists.find((l) => l.id === p.active) ?? p.lists[0]!;
}

/** Why `name` cannot name a list (other than `exceptId`), or null when it can. */
export function nameProblem(p: ProfileLists, name: string, exceptId?: string): string | null {
  const n = name.trim();
  if (!n) return 'Give the list a name';
  if (n.length > MAX_NAME) return `At most ${MAX_NAME} characters`;
  if (p.lists.some((l) => l.id !== exceptId && l.name.toLowerCase() === n.toLowerCase())) {
    return `There is already a list called ${n}`;
  }
  return null;
}

/** A new, empty list named `name`, shown at once; unchanged when the name is not usable or there are too many lists. */
export function listAdded(p: ProfileLists, name: string): ProfileLists {
  if (nameProblem(p, name) !== null || p.lists.length >= MAX_LISTS) return p;
  let n = p.lists.length + 1;
  while (p.lists.some((l) => l.id === `w${n}`)) n++;
  const id = `w${n}`;
  return { lists: [...p.lists, { id, name: name.trim(), tokens: [] }], active: id };
}

/** `id` renamed; unchanged when the name is not usable. */
export function listRenamed(p: ProfileLists, id: string, name: string): ProfileLists {
  if (nameProblem(p, name, id) !== null) return p;
  return { ...p, lists: p.lists.map((l) => (l.id === id ? { ...l, name: name.trim() } : l)) };
}

/** `id` removed, unless it is the last list; the one shown moves to its neighbour. */
export function listRemoved(p: ProfileLists, id: string): ProfileLists {
  if (p.lists.length <= 1) return p;
  const at = p.lists.findIndex((l) => l.id === id);
  if (at < 0) return p;
  const lists = p.lists.filter((l) => l.id !== id);
  const active = p.active === id ? lists[Math.min(at, lists.length - 1)]!.id : p.active;
  return { lists, active };
}

/** `id` shown. */
export function listShown(p: ProfileLists, id: string): ProfileLists {
  return p.lists.some((l) => l.id === id) ? { ...p, active: id } : p;
}

/** `items` with the one at `from` moved `step` places (kept inside the array). */
function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (from < 0 || from >= out.length) return out;
  const [it] = out.splice(from, 1);
  out.splice(Math.min(out.length, Math.max(0, to)), 0, it!);
  return out;
}

/** List `id` moved `step` places in the order (−1 up/left, +1 down/right). */
export function listMoved(p: ProfileLists, id: string, step: number): ProfileLists {
  const at = p.lists.findIndex((l) => l.id === id);
  return { ...p, lists: moved(p.lists, at, at + step) };
}

/** The shown list changed by `change` (its tokens in, its tokens out). */
function inActive(p: ProfileLists, change: (tokens: readonly number[]) => readonly number[]): ProfileLists {
  const shown = activeList(p);
  return { ...p, lists: p.lists.map((l) => (l.id === shown.id ? { ...l, tokens: change(l.tokens) } : l)) };
}

/** `token` added at the end of the shown list (once; not past the limit). */
export function tokenAdded(p: ProfileLists, token: number): ProfileLists {
  return inActive(p, (t) => (t.includes(token) || t.length >= MAX_TOKENS ? t : [...t, token]));
}

/** `token` removed from the shown list. */
export function tokenRemoved(p: ProfileLists, token: number): ProfileLists {
  return inActive(p, (t) => t.filter((x) => x !== token));
}

/** `token` moved `step` rows in the shown list (Alt+↑/↓). */
export function tokenMoved(p: ProfileLists, token: number, step: number): ProfileLists {
  return inActive(p, (t) => {
    const at = t.indexOf(token);
    return at < 0 ? t : moved(t, at, at + step);
  });
}

/** `token` dropped onto `target`'s row: it takes that row's place (a drag and drop). */
export function tokenDropped(p: ProfileLists, token: number, target: number): ProfileLists {
  return inActive(p, (t) => {
    const from = t.indexOf(token);
    const to = t.indexOf(target);
    return from < 0 || to < 0 ? t : moved(t, from, to);
  });
}
