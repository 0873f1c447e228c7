/**
 * CSV as spreadsheets read it (RFC 4180: comma-separated, CRLF rows, a field with a comma, quote
 * or line break quoted, quotes doubled), safe to open (docs/desk.md §CSV export).
 */

/** One column: its header and how a row gives its cell. */
export interface CsvColumn<T> {
  readonly header: string;
  readonly cell: (row: T) => string | number | null;
}

/**
 * Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or CR first): prefixed with
 * `'` so a symbol or broker message can never execute as one. Numbers are written as numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line, then one line per row, CRLF-terminated. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => field(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(c.cell(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Rows of a CSV text (RFC 4180: quoted fields may hold commas, quotes doubled and line breaks;
 * CRLF or LF line ends; a byte-order mark is dropped). A trailing empty line is not a row.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
