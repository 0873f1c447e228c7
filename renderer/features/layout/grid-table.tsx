import type { ReactNode } from 'react';
import { EmptyRow } from './panel-states';

/**
 * One column of a grid: its header's words, or with more — `num` right-aligns it over figures,
 * `title` says on hover what an abbreviation means ("Δ": "Delta per unit"), `className` gives the
 * column its own width or colour, and `unseen` makes a header only a screen reader reads (over the
 * rows' checkboxes or buttons).
 */
export type Column =
  | string
  | {
      readonly header: string;
      readonly num?: boolean;
      readonly title?: string;
      readonly className?: string;
      readonly unseen?: boolean;
    };

/** A column of figures, right-aligned; `title` says what its header abbreviates. */
export function num(header: string, title?: string): Column {
  return title === undefined ? { header, num: true } : { header, num: true, title };
}

/** The unseen header over a table's last column, the rows' buttons. */
export const ACTIONS: Column = { header: 'Actions', unseen: true };

/** A grid's header row: one header a column, in order. */
export function TableHead({ columns }: { readonly columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, n) => (
          // A column's place is its identity: headers repeat ("Exit" time and price, a chain's two "LTP").
          <ColumnHeader key={n} column={c} />
        ))}
      </tr>
    </thead>
  );
}

/** One column's header cell. */
export function ColumnHeader({ column }: { readonly column: Column }) {
  const c: Exclude<Column, string> = typeof column === 'string' ? { header: column } : column;
  const className = [c.num ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ');
  return (
    <th className={className || undefined} title={c.title}>
      {c.unseen ? <span className="sr-only">{c.header}</span> : c.header}
    </th>
  );
}

/**
 * A grid (docs/renderer.md §State and structure): a named table, its header row from `columns`, a
 * row drawn by `row` for each of `rows` — or the one row saying why there are none (`none`)
 * across every column — and, while there are rows, `foot` under them (a `TotalsRow`).
 */
export function GridTable<T>(props: {
  readonly label: string;
  readonly columns: readonly Column[];
  readonly rows: readonly T[];
  /** Draws one row: a `tr` keyed by what it shows. */
  readonly row: (row: T, n: number) => ReactNode;
  /** The row when there are none ("No holdings"). */
  readonly none: ReactNode;
  readonly foot?: ReactNode;
  readonly className?: string | undefined;
}) {
  const { rows } = props;
  return (
    <table aria-label={props.label} className={props.className ? `grid ${props.className}` : 'grid'}>
      <TableHead columns={props.columns} />
      <tbody>
        {rows.length === 0 ? <EmptyRow colSpan={props.columns.length}>{props.none}</EmptyRow> : rows.map(props.row)}
      </tbody>
      {rows.length > 0 ? props.foot : null}
    </table>
  );
}

/** A grid's totals: "Total" across its first `span` columns, then the summed figures' cells. */
export function TotalsRow({ span, children }: { readonly span: number; readonly children: ReactNode }) {
  return (
    <tfoot>
      <tr>
        <th scope="row" colSpan={span}>
          Total
        </th>
        {children}
      </tr>
    </tfoot>
  );
}
