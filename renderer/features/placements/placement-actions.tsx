import type { Placement } from '@shared/domain/placement';
import { AppError } from '@shared/ipc/app-error';
import { describeError } from '../../lib/describe-error';
import { isRiskRefusal, RiskRefusal } from '../safety/risk-override';
import { isRefusal, refusalText } from './placement-model';
import { useDiscardPlacement, usePlaceAgain } from './queries';

/**
 * "Place again" and "Discard" for an intent confirmed absent after a restart: one click each, no
 * extra question (Discard sends nothing; Place again sends exactly the order the trader already
 * confirmed once, under the same reference). An intent from an earlier day than the broker's
 * list shows cannot be verified: its button says plainly that it may make a second order, and
 * only that button tells main the trader accepts it. What became of the click shows beside the
 * buttons until the list itself says so.
 */
export function PlacementActions({ placement }: { readonly placement: Placement }) {
  const again = usePlaceAgain();
  const discard = useDiscardPlacement();
  const busy = again.isPending || discard.isPending;
  const ref = placement.clientOrderId;
  const failure = again.error ?? discard.error;
  const mayDuplicate = placement.state === 'unverifiable';
  return (
    <span className="placement-actions">
      <button
        type="button"
        className={mayDuplicate ? 'mini warn' : 'mini'}
        aria-label={mayDuplicate ? `Place ${ref} again, though it may make a second order` : `Place ${ref} again`}
        title={mayDuplicate ? 'It may exist already: placing it again may make a second order' : undefined}
        disabled={busy}
        onClick={() => again.mutate({ clientOrderId: ref, mayDuplicate })}
      >
        {again.isPending ? 'Placing…' : mayDuplicate ? 'Place again (may duplicate)' : 'Place again'}
      </button>
      <button
        type="button"
        className="mini"
        aria-label={`Discard ${ref}`}
        disabled={busy}
        onClick={() => discard.mutate(ref)}
      >
        {discard.isPending ? 'Discarding…' : 'Discard'}
      </button>
      {again.error instanceof AppError && isRiskRefusal(again.error.info) ? (
        // A new decision, judged by the limits in force now (docs/contract.md §Risk guard).
        <RiskRefusal
          error={again.error.info}
          anyway="Place again anyway"
          onPlaceAnyway={() => again.mutate({ clientOrderId: ref, mayDuplicate, riskOverride: true })}
        />
      ) : failure ? (
        <span role="alert" className="inline-error">
          {isRefusal(again.error) ? refusalText(again.error.info) : describeError(failure)}
        </span>
      ) : null}
    </span>
  );
}
