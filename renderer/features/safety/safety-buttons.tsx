import type { Exchange } from '@shared/domain/instrument';
import type { PositionKey } from '@shared/domain/safety-run';
import { useSafetyActions } from './safety-store';

/** The blotter's "Cancel all" on a working order: every working order of that symbol, after a confirmation. */
export function CancelAllOfSymbol(props: { readonly exchange: Exchange; readonly tradingsymbol: string }) {
  const { confirmAsked } = useSafetyActions();
  return (
    <button
      type="button"
      aria-label={`Cancel all ${props.tradingsymbol} orders`}
      title={`Cancel every working order of ${props.tradingsymbol}`}
      onClick={() =>
        confirmAsked({ kind: 'cancelSymbol', exchange: props.exchange, tradingsymbol: props.tradingsymbol })
      }
    >
      Cancel all
    </button>
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
