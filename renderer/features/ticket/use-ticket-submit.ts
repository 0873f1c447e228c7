import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Variety } from '@shared/domain/order';
import { useConfirmOnEnter } from '../../state/settings-store';
import { refusalErrors, type TicketField } from './ticket-model';
import type { TicketForm } from './use-ticket-form';

/** The ticket's submit, what its foot reads. */
export type TicketSubmit = ReturnType<typeof useTicketSubmit>;

/**
 * The order ticket's submit: Place order sends the plain order, or with the bracket ticked the
 * bracket main keeps (docs/brackets.md §In the ticket), after the ticket's questions are
 * answered; Enter places (or asks to confirm) and Escape steps back one layer. Which answer
 * shows, and a refusal's reason next to the field it names.
 */
export function useTicketSubmit(form: TicketForm) {
  const { draft, evaluation, sending, bracket, asks, asking, setAsking } = form;
  const { request, single: submitter, legs, confirming, setConfirming } = sending;
  const bracketSubmit = bracket.submitter;
  const bracketRequest = bracket.request;
  const confirmOnEnter = useConfirmOnEnter();
  const [sentBracket, setSentBracket] = useState(false);
  const canPlace = bracket.draft.on ? bracketRequest !== null : request !== null;
  const pending = submitter.pending || legs.pending || bracketSubmit.pending;

  // A refusal's reason, next to the field it names.
  const lastOutcome = sentBracket ? bracketSubmit.outcome : submitter.outcome;
  const brokerErrors = refusalErrors(lastOutcome.kind === 'refused' ? lastOutcome.error : null);
  // A blank ticket is not a mistake: "Choose an instrument" in red before the trader has typed
  // anything would be noise (Place order is disabled, and the box's placeholder says what to do).
  const pristine = draft.instrumentToken === null;
  const errorOf = (f: TicketField): string | undefined =>
    (pristine && f === 'symbol' ? undefined : evaluation.errors[f]) ?? brokerErrors[f];

  // `answered`: the trader saw the ticket's questions and chose Place anyway.
  const submitOrder = (answered = false): void => {
    if (!answered && asks.length > 0) {
      setConfirming(false);
      setAsking(true);
      return;
    }
    setAsking(false);
    if (bracket.draft.on) {
      if (!bracketRequest) return;
      setConfirming(false);
      setSentBracket(true);
      bracketSubmit.submit(bracketRequest);
      return;
    }
    setSentBracket(false);
    sending.submitOrder();
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    submitOrder();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (submitter.warning) submitter.dismissWarning();
      else if (asking) setAsking(false);
      else if (confirming) setConfirming(false);
      else form.ticketClosed();
      return;
    }
    if (e.key !== 'Enter' || e.target instanceof HTMLButtonElement) return;
    e.preventDefault();
    if (!canPlace || pending) return;
    if (confirmOnEnter) setConfirming(true);
    else submitOrder();
  };
  // The legs and an AMO are sent as single orders: the bracket's answer no longer shows.
  const placeLegs = (): void => {
    setSentBracket(false);
    sending.placeLegs();
  };
  const placeAs = (v: Variety): void => {
    setSentBracket(false);
    sending.placeAs(v);
  };

  return {
    canPlace,
    pending,
    sentBracket,
    lastOutcome,
    brokerErrors,
    errorOf,
    submitOrder,
    onSubmit,
    onKeyDown,
    placeLegs,
    placeAs,
  };
}
