import type { Exchange } from '@shared/domain/instrument';
import { isWorking, type Order } from '@shared/domain/order';
import type { PositionKey } from '@shared/domain/safety-run';
import { useSafetyActions } from './safety-store';

/**
 * The blotter's "Cancel all…": a list of the symbols with working orders (and how many); choosing
 * one asks to confirm, then cancels every working order of that symbol (docs/contract.md §Kill switch).
 */
export function CancelAllMenu(props: { readonly orders: readonly Order[] }) {
  const { confirmAsked } = useSafetyActions();
  const counts = new Map<string, { exchange: Exchange; tradingsymbol: string; n: number }>();
  for (const o of props.orders) {
    if (!isWorking(o.status)) continue;
    const key = `${o.exchange}:${o.tradingsymbol}`;
    const c = counts.get(key) ?? { exchange: o.exchange, tradingsymbol: o.tradingsymbol, n: 0 };
    c.n += 1;
    counts.set(key, c);
  }
  const symbols = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
  return (
    <select
      aria-label="Cancel all orders of a symbol"
      value=""
      disabled={symbols.length === 0}
      onChange={(e) => {
        const c = counts.get(e.target.value);
        if (c) confirmAsked({ kind: 'cancelSymbol', exchange: c.exchange, tradingsymbol: c.tradingsymbol });
      }}
    >
      <option value="">Cancel all…</option>
      {symbols.map(([key, c]) => (
        <option key={key} value={key}>
          {c.tradingsymbol} ({c.n})
        </option>
      ))}
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
