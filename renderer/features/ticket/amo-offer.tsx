import type { ExchangeSession } from '@shared/domain/market';
import type { Variety } from '@shared/domain/order';
import { describeSession } from '../market-status/session-model';

/**
 * After-market orders in the ticket (docs/api.md §After-market orders). While the instrument's
 * exchange is closed the ticket says so and offers to place the order as an AMO, which the broker
 * holds and releases at the next open; a regular order refused for the closed market (or an AMO
 * refused because the market is open) shows the broker's reason here with a one-click "Place as
 * AMO" (or "Place as a regular order"). Nothing is switched behind the trader's back: the AMO box
 * is theirs to tick.
 */
export function AmoOffer(props: {
  readonly session: ExchangeSession | undefined;
  /** The market clock's time the session was read at (for "opens 09:15 Tue 24 Nov"). */
  readonly now: string | undefined;
  readonly variety: Variety;
  readonly onVariety: (v: Variety) => void;
  /** The broker's reason when it refused the last order over its variety. */
  readonly refusal: string | undefined;
  /** Places the ticket's order at once as the other variety; absent while it cannot be placed. */
  readonly onPlaceAs?: (v: Variety) => void;
}) {
  const { session, variety, refusal } = props;
  const closed = session?.phase === 'closed';
  if (!closed && variety === 'regular' && refusal === undefined) return null;
  const other: Variety = variety === 'amo' ? 'regular' : 'amo';
  return (
    <div className="ticket__amo" role="group" aria-label="Market hours">
      {closed && session && props.now ? (
        <p className="ticket__amo-why">
          Outside market hours — {session.exchange} {describeSession(session, props.now)}. Place as AMO?
        </p>
      ) : null}
      {refusal !== undefined ? (
        <p className="field-error" role="alert" data-testid="variety-refusal">
          {refusal}
        </p>
      ) : null}
      <div className="form__buttons">
        <label className="check">
          <input
            type="checkbox"
            checked={variety === 'amo'}
            onChange={(e) => props.onVariety(e.target.checked ? 'amo' : 'regular')}
          />
          After-market order (AMO) — sent at the next open
        </label>
        {refusal !== undefined && props.onPlaceAs ? (
          <button type="button" className="primary" onClick={() => props.onPlaceAs?.(other)}>
            {other === 'amo' ? 'Place as AMO' : 'Place as a regular order'}
          </button>
        ) : null}
      </div>
    </div>
  );
}
