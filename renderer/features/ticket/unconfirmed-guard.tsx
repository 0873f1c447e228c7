import { useEffect, useRef } from 'react';
import type { UnconfirmedWarning } from './use-submit-order';

/**
 * Shown instead of sending while an earlier click (or the same order) is not yet confirmed: it
 * may still become an order, so placing again could make two. Back has the focus, so a stray
 * Enter does not place a second one.
 */
export function UnconfirmedGuard(props: {
  readonly warning: UnconfirmedWarning;
  readonly onPlace: () => void;
  readonly onBack: () => void;
}) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  const ref = props.warning.clientOrderId;
  return (
    <div className="ticket__confirm ticket__guard" role="group" aria-label="Order not yet confirmed">
      <p>
        {ref ? (
          <>
            Order <code className="reference">{ref}</code> is not yet confirmed
          </>
        ) : (
          'Your last order is not yet confirmed'
        )}{' '}
        — it may still be placed. Placing now could make a second order.
      </p>
      <div className="form__buttons">
        <button type="button" onClick={props.onPlace}>
          Place another order
        </button>
        <button ref={back} type="button" className="primary" onClick={props.onBack}>
          Back
        </button>
      </div>
    </div>
  );
}
