import type { ReactNode } from 'react';
import { describeError } from '../../lib/describe-error';

/**
 * What a panel shows until its query has data: "Loading funds…", or why it could not
 * ("Could not load funds: Rate limited by the broker"). Every panel says it the same way.
 */
export function PanelPlaceholder({ what, error }: { readonly what: string; readonly error: unknown }) {
  return <p className="empty">{error ? `Could not load ${what}: ${describeError(error)}` : `Loading ${what}…`}</p>;
}

/** The one row a table shows when it has none ("No holdings"), spanning every column. */
export function EmptyRow({ colSpan, children }: { readonly colSpan: number; readonly children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="empty">
        {children}
      </td>
    </tr>
  );
}
