import type { UnconfirmedWarning } from './use-submit-order';
import { SendAsk } from './send-ask';

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
  const ref = props.warning.clientOrderId;
  return (
    <SendAsk
      label="Order not yet confirmed"
      placeLabel="Place another order"
      onPlace={props.onPlace}
      onBack={props.onBack}
    >
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
    </SendAsk>
  );
}
