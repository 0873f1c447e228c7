import { useEffect, useRef } from 'react';
import type { OrderRequest } from '@shared/domain/order';
import { describeOrderRequest } from '../placements/placement-model';

/**
 * "BUY 75 NIFTY26NOVFUT LIMIT @ 24,500.00 · NRML · DAY?" with Confirm focused, so a second Enter
 * places the order and Back (or Esc, handled by the form) returns to editing.
 */
export function ConfirmOrder(props: {
  readonly request: OrderRequest;
  /** What comes with it ("with stop-loss 1,480.00 and target 1,530.00, kept by Tradedesk"). */
  readonly extra?: string | null;
  readonly onConfirm: () => void;
  readonly onBack: () => void;
}) {
  return (
    <div className="ticket__confirm" role="group" aria-label="Confirm order">
      <p>
        {describeOrderRequest(props.request)} · {props.request.validity}
        {props.request.variety === 'amo' ? ' · AMO' : ''}
        {props.extra ? ` ${props.extra}` : ''}?
      </p>
      <div className="form__buttons">
        <ConfirmButton onConfirm={props.onConfirm} />
        <button type="button" onClick={props.onBack}>
          Back
        </button>
      </div>
    </div>
  );
}

/** Focused as soon as it appears, so a second Enter confirms. */
function ConfirmButton({ onConfirm }: { readonly onConfirm: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <button ref={ref} type="button" className="primary" onClick={onConfirm}>
      Confirm
    </button>
  );
}
