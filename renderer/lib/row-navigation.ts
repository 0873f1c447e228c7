/**
 * Arrow-key movement through a table's rows (docs/desk.md §Keyboard), over the rows that are
 * rendered: it knows nothing of where the rows' data comes from, so the blotter's data layer
 * may change under it. A virtualized table renders a few rows beyond its view, so the next row
 * is always there to take the focus (and the browser scrolls it into view).
 *
 * A list is one tab stop (roving focus): one row has `tabIndex` 0 (`tabStop`), every other row
 * and every button inside a row -1, so Tab enters the list once and leaves it at the next
 * control; inside, the arrows move and the row's keys act.
 */

/**
 * The row that holds the list's tab stop: `preferred` (the selected or last focused row) while
 * it is rendered, else the first rendered row, so a list with rows always has one; null when empty.
 */
export function tabStop<K>(rendered: readonly K[], preferred: K | null | undefined): K | null {
  if (preferred !== null && preferred !== undefined && rendered.includes(preferred)) return preferred;
  return rendered[0] ?? null;
}

/** The index `step` rows from `current` among `count`, kept inside the list; null when empty. */
export function stepIndex(count: number, current: number, step: number): number | null {
  if (count === 0) return null;
  if (current < 0) return step > 0 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, current + step));
}

/**
 * Moves the focus `step` rows from the row holding `from`, among the rows of `table` matching
 * `rowSelector`. Returns the row focused, or null when there was none to move to.
 */
export function focusRow(table: Element, from: Element, rowSelector: string, step: number): HTMLElement | null {
  const rows = [...table.querySelectorAll<HTMLElement>(rowSelector)];
  const current = from.closest<HTMLElement>(rowSelector);
  const next = stepIndex(rows.length, current ? rows.indexOf(current) : -1, step);
  const row = next === null ? null : (rows[next] ?? null);
  if (row && row !== current) row.focus();
  return row && row !== current ? row : null;
}
