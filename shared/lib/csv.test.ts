import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv, type CsvColumn } from './csv';

interface Row {
  readonly name: string;
  readonly qty: number;
  readonly note: string | null;
}
const COLUMNS: readonly CsvColumn<Row>[] = [
  { header: 'name', cell: (r) => r.name },
  { header: 'qty', cell: (r) => r.qty },
  { header: 'note', cell: (r) => r.note },
];

describe('toCsv', () => {
  it('writes a header and one CRLF-terminated line per row', () => {
    expect(toCsv(COLUMNS, [{ name: 'INFY', qty: 10, note: null }])).toBe('name,qty,note\r\nINFY,10,\r\n');
  });

  it('quotes a field with a comma, a quote or a line break, doubling its quotes', () => {
    const csv = toCsv(COLUMNS, [{ name: 'M&M', qty: 1, note: 'said "no", then\nyes' }]);
    expect(csv).toBe('name,qty,note\r\nM&M,1,"said ""no"", then\nyes"\r\n');
  });

  it('defuses text a spreadsheet would run as a formula, but writes negative numbers as numbers', () => {
    const csv = toCsv(COLUMNS, [{ name: '=HYPERLINK("x")', qty: -5, note: '-2+3' }]);
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",-5,'-2+3`);
  });
});

describe('toCsv defuses every formula lead', () => {
  it('text starting with =, +, - or @ is written behind a quote mark; numbers stay numbers', () => {
    const rows = ['=1+1', '+91 98', '-cmd', '@SUM(A1)'].map((name) => ({ name, qty: -1, note: null }));
    const lines = toCsv(COLUMNS, rows).split('\r\n').slice(1, 5);
    expect(lines).toEqual(["'=1+1,-1,", "'+91 98,-1,", "'-cmd,-1,", "'@SUM(A1),-1,"]);
  });
});

describe('parseCsv', () => {
  it('reads what toCsv writes, quotes, commas and line breaks included', () => {
    const text = toCsv(
      [
        { header: 'a', cell: (r: readonly string[]) => r[0] ?? null },
        { header: 'b', cell: (r: readonly string[]) => r[1] ?? null },
      ],
      [
        ['plain', 'with, comma'],
        ['say "hi"', 'two\r\nlines'],
      ],
    );
    expect(parseCsv(text)).toEqual([
      ['a', 'b'],
      ['plain', 'with, comma'],
      ['say "hi"', 'two\r\nlines'],
    ]);
  });

  it('takes LF line ends, a byte-order mark and a last line without a line end', () => {
    expect(parseCsv('\uFEFFx,y\n1,2\n3,')).toEqual([
      ['x', 'y'],
      ['1', '2'],
      ['3', ''],
    ]);
  });
});
