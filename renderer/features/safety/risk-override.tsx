import { useEffect, useRef } from 'react';
import type { IpcError } from '@shared/ipc/result';

/**
 * Under the ticket after a refusal by the risk guard (docs/contract.md §Risk guard): every limit
 * broken with its figures, and — when all of them are soft — "Place anyway", which sends this one
 * order again with the override. A hard limit offers no way round it.
 */
export function RiskRefusal(props: {
  readonly error: IpcError;
  readonly onPlaceAnyway: () => void;
  /** The button's words where this is not a new order ("Modify anyway", "Create anyway"). */
  readonly anyway?: string;
}) {
  const breaches = (props.error.fields ?? []).filter((f) => f.field.startsWith('risk.'));
  const soft = props.error.field === 'riskOverride';
  const ref = useRef<HTMLDivElement>(null);
  // The ticket may be scrolled: bring the figures (and "Place anyway") into view.
  // (A block body: newer Chromium returns a promise from scrollIntoView, which must not become the effect's cleanup.)
  useEffect(() => {
    void ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [props.error]);
  if (breaches.length === 0) return null;
  return (
    <div className="risk-override" data-testid="risk-refusal" ref={ref}>
      <strong>{soft ? 'Over your soft risk limits:' : 'Refused by your risk limits:'}</strong>
      <ul>
        {breaches.map((b) => (
          <li key={b.field}>{b.message}</li>
        ))}
      </ul>
      {soft ? (
        <button type="button" className="primary" onClick={props.onPlaceAnyway}>
          {props.anyway ?? 'Place anyway'}
        </button>
      ) : null}
    </div>
  );
}

/** True when a refusal came from the risk guard. */
export function isRiskRefusal(error: IpcError): boolean {
  return error.field === 'riskOverride' || (error.field ?? '').startsWith('risk.');
}
