import type { ReactNode } from 'react';
import { describeError } from '../../lib/describe-error';
import { ACTIONS, ColumnHeader, GridTable, type Column } from './grid-table';

/**
 * The list of records a dialog or the GTT panel shows (price alerts, unconfirmed orders, drift
 * findings, GTTs): a named table, its headers and an unseen "Actions" header over the rows'
 * buttons, one row per record (`row` draws it, cells and `RowActions`), and one row saying why
 * there is none: still loading, could not load, or nothing to list.
 */
export function RecordTable<T>(props: {
  readonly label: string;
  readonly columns: readonly Column[];
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
  const { records } = props;
  return (
    <GridTable
      label={props.label}
      columns={[...props.columns, ACTIONS]}
      rows={records ?? []}
      row={props.row}
      none={
        records !== undefined
          ? props.empty
          : props.error
            ? `Could not load ${props.what}: ${describeError(props.error)}`
            : `Loading ${props.what}…`
      }
      className={props.className}
    />
  );
}

/** The header over a table's last column, the rows' buttons: named for a screen reader, unseen. */
export function ActionsHeader() {
  return <ColumnHeader column={ACTIONS} />;
}

/** The last cell of a record's row: its buttons. */
export function RowActions({ children }: { readonly children?: ReactNode }) {
  return <td className="row-actions">{children}</td>;
}
