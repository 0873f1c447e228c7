import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { OrderRequest } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import { usePlaceOrder } from '../orders/queries';
import { openPlacements, sameOrder } from '../placements/placement-model';
import { placementQueries } from '../placements/queries';
import { isUndecided, matchPlacement, ticketOutcome, type TicketOutcome } from './place-outcome';

/** While the ticket's last click is unaccounted for, the list is re-read this often until it is. */
const UNMATCHED_RECHECK_MS = 1_000;

/**
 * A fresh id per click (16 random bytes, hex): main never makes a second intent for one id, and
 * a reply lost on the way back is matched to its intent by it. `getRandomValues` works in every
 * context the renderer runs in (`randomUUID` needs a secure one).
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `rq-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** An order that may still be placed, which the trader must see before placing the same again. */
export interface UnconfirmedWarning {
  /** Its reference, when known. */
  readonly clientOrderId: string | null;
}

/** What the ticket needs from its submit logic. */
export interface SubmitOrder {
  readonly outcome: TicketOutcome;
  readonly pending: boolean;
  /**
   * Sends the order (or `order`, the ticket's order changed in one respect, e.g. placed as an
   * AMO after a refusal), unless one like it is unconfirmed and the trader has not seen that yet.
   */
  submit(options?: {
    readonly despiteUnconfirmed?: boolean;
    readonly order?: OrderRequest;
    /** The trader's "Place anyway" over soft risk limits: this one order (docs/contract.md §Risk guard). */
    readonly riskOverride?: boolean;
  }): void;
  /** Shown in place of sending while an order from this ticket (or the same order) is unconfirmed. */
  readonly warning: UnconfirmedWarning | null;
  dismissWarning(): void;
  /** The trader changed the ticket: a refusal was about the old values, and the warning about the old order. */
  edited(): void;
}

/**
 * The ticket's submit logic (docs/money-path.md, "The money path on screen"): one call per
 * click however fast the clicks come, a fresh `requestId` each, and the outcome read together
 * with the unconfirmed list, so a lost reply still ends as placed, not placed or a decision —
 * never as "failed" when an order may exist. Placing again while an earlier click may still
 * become an order asks first.
 */
export function useSubmitOrder(request: OrderRequest | null): SubmitOrder {
  const client = useQueryClient();
  const place = usePlaceOrder();
  const inFlight = useRef(false);
  const [listVersionAtAnswer, setListVersionAtAnswer] = useState<number | null>(null);
  const [warned, setWarned] = useState(false);
  const [unmatched, setUnmatched] = useState(false);

  const listKey = placementQueries.list().queryKey;
  const placements = useQuery({
    ...placementQueries.list(),
    refetchInterval: unmatched ? UNMATCHED_RECHECK_MS : placementQueries.list().refetchInterval,
  });
  const call = {
    pending: place.isPending,
    requestId: place.variables?.requestId ?? null,
    data: place.data,
    error: place.error,
    listVersionAtAnswer,
  };
  // The latest sighting of this click's intent in the list, kept if main later drops it.
  const sighted = matchPlacement(call, placements.data);
  const [kept, setKept] = useState<{ readonly requestId: string | null; readonly placement: Placement } | null>(null);
  if (sighted && kept?.placement !== sighted) setKept({ requestId: call.requestId, placement: sighted });
  const matched = sighted ?? (kept && kept.requestId === call.requestId ? kept.placement : null);
  const outcome = ticketOutcome(
    call,
    // `dataUpdatedAt` read from the result (not the cache) so that every read of the list — even
    // one returning the same list — re-renders this hook and can turn a lost reply into "no record".
    { data: placements.data, version: placements.dataUpdatedAt },
    matched,
  );
  // Re-read the list quickly only while the last click has no reference yet.
  const nowUnmatched = outcome.kind === 'unconfirmed' && outcome.clientOrderId === null;
  if (nowUnmatched !== unmatched) setUnmatched(nowUnmatched);

  const twin = request ? openPlacements(placements.data).find((p) => sameOrder(p.order, request)) : undefined;
  const caution: UnconfirmedWarning | null = isUndecided(outcome)
    ? { clientOrderId: referenceOf(outcome) }
    : twin
      ? { clientOrderId: twin.clientOrderId }
      : null;

  const submit: SubmitOrder['submit'] = (options) => {
    const order = options?.order ?? request;
    if (inFlight.current || place.isPending || !order) return;
    const twinOfOrder = options?.order ? openPlacements(placements.data).find((p) => sameOrder(p.order, order)) : twin;
    const cautionOfOrder = isUndecided(outcome)
      ? caution
      : twinOfOrder
        ? { clientOrderId: twinOfOrder.clientOrderId }
        : null;
    if (cautionOfOrder && !options?.despiteUnconfirmed) {
      setWarned(true);
      return;
    }
    inFlight.current = true;
    setWarned(false);
    place.mutate(
      {
        order,
        requestId: newRequestId(),
        clickedAt: Date.now(),
        ...(options?.riskOverride ? { riskOverride: true } : {}),
      },
      {
        onSettled: () => {
          inFlight.current = false;
          setListVersionAtAnswer(client.getQueryState(listKey)?.dataUpdatedAt ?? 0);
        },
      },
    );
  };

  return {
    outcome,
    pending: place.isPending,
    submit,
    warning: warned ? caution : null,
    dismissWarning: () => setWarned(false),
    edited: () => {
      if (outcome.kind === 'refused') place.reset();
      setWarned(false);
    },
  };
}

/** The reference an undecided outcome is about, when known. */
function referenceOf(o: TicketOutcome): string | null {
  if (o.kind === 'unconfirmed') return o.clientOrderId;
  if (o.kind === 'needs_decision') return o.placement.clientOrderId;
  return null;
}
