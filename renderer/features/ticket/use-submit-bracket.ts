import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Bracket, BracketRequest } from '@shared/domain/bracket';
import { AppError } from '@shared/ipc/app-error';
import type { IpcError } from '@shared/ipc/result';
import { isRefusal } from '../placements/placement-model';
import { placementQueries } from '../placements/queries';
import { bracketQueries, usePlaceBracket } from '../brackets/queries';
import { bracketFieldOf, type BracketDraftField } from './bracket-draft';
import { matchPlacement, ticketOutcome, type TicketOutcome } from './place-outcome';
import { newRequestId } from './use-submit-order';

/** What the ticket needs to send a bracket and show its answer. */
export interface SubmitBracket {
  /** The entry's answer, as the ticket shows any order's (placed, refused, not yet confirmed…). */
  readonly outcome: TicketOutcome;
  /** The bracket main keeps for the last click, once known (from the answer or the pushed list). */
  readonly bracket: Bracket | null;
  /** A refusal's reason beside the section's field it names (`stop.triggerPrice` → stop). */
  readonly fieldErrors: Partial<Record<BracketDraftField, string>>;
  readonly pending: boolean;
  submit(request: BracketRequest, options?: { readonly riskOverride?: boolean }): void;
  /** The trader changed the ticket: a refusal was about the old values. */
  edited(): void;
}

/**
 * The ticket's bracket submit (docs/brackets.md §In the ticket): one `brackets.place` per click
 * with a fresh request id, so a repeated or lost call never makes a second bracket. Main places
 * the entry through the one exactly-once path, so its answer is read exactly as a plain order's
 * (`place-outcome.ts`): the call's own, overtaken by the unconfirmed list's view of the entry's
 * intent (matched by the request id after a lost reply). A refusal naming an exit's field is
 * shown beside that field, and the outcome line says "Not placed" with its reason.
 */
export function useSubmitBracket(): SubmitBracket {
  const client = useQueryClient();
  const place = usePlaceBracket();
  const inFlight = useRef(false);
  const [listVersionAtAnswer, setListVersionAtAnswer] = useState<number | null>(null);
  const placements = useQuery(placementQueries.list());
  const brackets = useQuery(bracketQueries.list());

  const requestId = place.variables?.requestId ?? null;
  const exitRefusal = exitFieldOf(place.error);
  const error = exitRefusal ? withoutField(place.error as AppError) : place.error;
  const call = {
    pending: place.isPending,
    requestId,
    data: place.data?.entry ?? undefined,
    error,
    listVersionAtAnswer,
  };
  const outcome = ticketOutcome(
    call,
    { data: placements.data, version: placements.dataUpdatedAt },
    matchPlacement(call, placements.data),
  );
  const bracket =
    (requestId !== null ? brackets.data?.find((b) => b.requestId === requestId) : undefined) ??
    place.data?.bracket ??
    null;
  const fieldErrors: Partial<Record<BracketDraftField, string>> =
    exitRefusal && place.error instanceof AppError ? { [exitRefusal]: place.error.info.message } : {};

  return {
    outcome,
    bracket,
    fieldErrors,
    pending: place.isPending,
    submit: (request, options) => {
      if (inFlight.current || place.isPending) return;
      inFlight.current = true;
      place.mutate(
        {
          request,
          requestId: newRequestId(),
          clickedAt: Date.now(),
          ...(options?.riskOverride ? { riskOverride: true as const } : {}),
        },
        {
          onSettled: () => {
            inFlight.current = false;
            setListVersionAtAnswer(client.getQueryState(placementQueries.list().queryKey)?.dataUpdatedAt ?? 0);
          },
        },
      );
    },
    edited: () => {
      if (isRefusal(place.error)) place.reset();
    },
  };
}

/** The section field a refusal names, when it is an exit's (the entry's fields are the ticket's own). */
function exitFieldOf(error: unknown): BracketDraftField | null {
  if (!isRefusal(error)) return null;
  return bracketFieldOf(error.info.field);
}

/** The refusal without its exit field, so the outcome line reads its reason, not a ticket field. */
function withoutField(error: AppError): AppError {
  const info: IpcError = { ...error.info };
  delete info.field;
  return new AppError(info);
}
