import { formatQty } from '../../lib/format';
import { OutcomeBody } from './order-outcome';
import type { SlicePlan } from './slice-model';
import type { LegView } from './use-submit-legs';

/**
 * The offer under Quantity when it is above the contract's freeze limit: "Quantity 3,600 is
 * above the freeze limit of 1,800 — place as 2 legs?", with the button that places them.
 */
export function SliceOffer(props: {
  readonly quantity: number;
  readonly freeze: number;
  readonly plan: SlicePlan;
  readonly disabled: boolean;
  readonly onPlace: () => void;
}) {
  const n = props.plan.legs.length;
  return (
    <div className="ticket__slice" role="group" aria-label="Freeze limit">
      <p>
        Quantity {formatQty(props.quantity)} is above the freeze limit of {formatQty(props.freeze)} — place as {n} legs?
      </p>
      <p className="muted small">
        {props.plan.legs.map(formatQty).join(' + ')}: each leg is its own order with its own reference.
      </p>
      <button type="button" className="primary" disabled={props.disabled} onClick={props.onPlace}>
        Place as {n} legs
      </button>
    </div>
  );
}

/** Each leg's outcome, as the ticket tells a single order's: placed, refused, not yet confirmed, or not sent. */
export function LegOutcomes({
  legs,
  names,
}: {
  readonly legs: readonly LegView[];
  /** What each leg is ("BUY 75 NIFTY…"), where the legs are different orders (a strategy). */
  readonly names?: readonly string[];
}) {
  return (
    <ol className="ticket__legs" aria-label="Legs" aria-live="polite">
      {legs.map((leg, n) => (
        <li key={n} data-testid="leg-outcome" data-state={leg.outcome.kind}>
          <span className="ticket__leg-name">
            Leg {n + 1} of {legs.length} · {names?.[n] ?? formatQty(leg.quantity)}
          </span>{' '}
          {leg.outcome.kind === 'waiting' ? (
            <span className="muted">Waiting for the leg before it…</span>
          ) : leg.outcome.kind === 'not_sent' ? (
            <span className="outcome-not-placed">Not sent — nothing was created for this leg</span>
          ) : (
            <OutcomeBody outcome={leg.outcome} />
          )}
        </li>
      ))}
    </ol>
  );
}
