import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import type { PositionKey } from '@shared/domain/safety-run';
import { orderBookOf } from '../orders/order-book-store';
import { useSafetyActions } from './safety-store';
import { WorkingSymbols } from './working-symbols';

/**
 * The blotter's "Cancel all…": a list of the symbols with working orders (and how many); choosing
 * one asks to confirm, then cancels every working order of that symbol (docs/contract.md §Kill switch).
 * The counts follow the page's order book one changed row at a time (`WorkingSymbols`), so the
 * menu costs nothing while orders change without a count moving.
 */
export function CancelAllMenu() {
  const { confirmAsked } = useSafetyActions();
  const client = useQueryClient();
  const [model] = useState(() => new WorkingSymbols(orderBookOf(client)));
  const subscribe = useCallback((changed: () => void) => model.attach(changed), [model]);
  const read = useCallback(() => model.read(), [model]);
  const symbols = useSyncExternalStore(subscribe, read);
  const options = useMemo(
    () =>
      symbols.map((c) => (
        <option key={c.key} value={c.key}>
          {c.tradingsymbol} ({c.n})
        </option>
      )),
    [symbols],
  );
  return (
    <select
      aria-label="Cancel all orders of a symbol"
      value=""
      disabled={symbols.length === 0}
      onChange={(e) => {
        const c = symbols.find((s) => s.key === e.target.value);
        if (c) confirmAsked({ kind: 'cancelSymbol', exchange: c.exchange, tradingsymbol: c.tradingsymbol });
      }}
    >
      <option value="">Cancel all…</option>
      {options}
    </select>
  );
}

/** The positions panel's "Exit selected": the chosen positions, after a confirmation. */
export function ExitSelected(props: { readonly positions: readonly PositionKey[] }) {
  const { confirmAsked } = useSafetyActions();
  const n = props.positions.length;
  return (
    <button
      type="button"
      disabled={n === 0}
      onClick={() => confirmAsked({ kind: 'exitPositions', positions: [...props.positions] })}
    >
      Exit selected{n > 0 ? ` (${n})` : ''}
    </button>
  );
}
