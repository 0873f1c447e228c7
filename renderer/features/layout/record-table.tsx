import type { ReactNode } from 'react';
import { describeError } from '../../lib/describe-error';
import { EmptyRow } from './panel-states';

/** One column: its header, and `num` for a right-aligned figure. */
export type RecordColumn = string | { readonly header: string; readonly num?: boolean };

/**
 * The list of records a dialog or the GTT panel shows (price alerts, unconfirmed orders, drift
 * findings, GTTs): a named table, its headers and an unseen "Actions" header over the rows'
 * buttons, one row per record (`row` draws it, cells and `RowActions`), and one row saying why
 * there is none: still loading, could not load, or nothing to list.
 */
export function RecordTable<T>(props: {
  readonly label: string;
  readonly columns: readonly RecordColumn[];
  /** Undefined until loaded. */
  readonly records: readonly T[] | undefined;
  readonly error?: unknown;
  /** What is listed, for "Loading alerts…" and "Could not load alerts: …". */
  readonly what: string;
  /** The row when there are none ("No alerts"). */
  readonly empty: ReactNode;
  readonly row: (record: T) => ReactNode;
  readonly className?: string;
}) {
  const { columns, records } = props;
  const span = columns.length + 1;
  return (
    <table className={props.className ? `grid ${props.className}` : 'grid'} aria-label={props.label}>
      <thead>
        <tr>
          {columns.map((c) => {
            const { header, num } = typeof c === 'string' ? { header: c, num: false } : c;
            return (
              <th key={header} className={num ? 'num' : undefined}>
                {header}
              </th>
            );
          })}
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {records === undefined ? (
          <EmptyRow colSpan={span}>
            {props.error ? `Could not load ${props.what}: ${describeError(props.error)}` : `Loading ${props.what}…`}
          </EmptyRow>
        ) : records.length === 0 ? (
          <EmptyRow colSpan={span}>{props.empty}</EmptyRow>
        ) : (
          records.map(props.row)
        )}
      </tbody>
    </table>
  );
}

/** The header over a table's last column, the rows' buttons: named for a screen reader, unseen. */
export function ActionsHeader() {
  return (
    <th>
      <span className="sr-only">Actions</span>
    </th>
  );
}

/** The last cell of a record's row: its buttons. */
export function RowActions({ children }: { readonly children?: ReactNode }) {
  return <td className="row-actions">{children}</td>;
}
