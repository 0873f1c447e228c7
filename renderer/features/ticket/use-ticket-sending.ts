import { useState } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest, Variety } from '@shared/domain/order';
import { slicePlan, type SlicePlan } from './slice-model';
import { type BrokerRules, evaluateTicket, parseNumber, type TicketDraft, type TicketEvaluation } from './ticket-model';
import { useSubmitLegs, type SubmitLegs } from './use-submit-legs';
import { useSubmitOrder, type SubmitOrder } from './use-submit-order';

/** How the ticket sends what the trader typed, and what it last sent. */
export interface TicketSending {
  /** The order Place order sends (an AMO when the trader chose one), or null while anything is wrong. */
  readonly request: OrderRequest | null;
  readonly variety: Variety;
  /** The trader ticked or unticked the AMO box. */
  chooseVariety(variety: Variety): void;
  /** The broker refused the last order over its variety: the same order as the other one. */
  placeAs(variety: Variety): void;
  readonly single: SubmitOrder;
  /** Sends the single order (after its confirmation, if one was shown). */
  submitOrder(): void;
  /** Above the freeze limit: the legs, offered only when every one of them could be placed. */
  readonly plan: SlicePlan | null;
  readonly sliceable: boolean;
  readonly legs: SubmitLegs;
  placeLegs(options?: { readonly despiteUnconfirmed?: boolean }): void;
  /** Which answer the ticket shows: its last single order's, or its last sliced order's legs. */
  readonly lastSent: 'single' | 'legs';
  /** Whether the "Place this order?" confirmation is shown. */
  readonly confirming: boolean;
  setConfirming(on: boolean): void;
  /** The trader changed the draft: the last answer and any confirmation no longer apply. */
  edited(): void;
}

/**
 * The ticket's variety and legs state (docs/renderer.md §Market depth, sessions and the
 * option chain on screen): the AMO choice, the single order and the freeze-limit legs, each sent
 * exactly once through its own submit hook, and which of them answered last.
 */
export function useTicketSending(
  draft: TicketDraft,
  instrument: Instrument | undefined,
  evaluation: TicketEvaluation,
  broker?: BrokerRules,
  lastPrice?: number,
): TicketSending {
  const [variety, setVariety] = useState<Variety>('regular');
  const [confirming, setConfirming] = useState(false);
  const [lastSent, setLastSent] = useState<'single' | 'legs'>('single');
  const withVariety = (r: OrderRequest | null): OrderRequest | null => (r && variety === 'amo' ? { ...r, variety } : r);
  const request = withVariety(evaluation.request);
  const single = useSubmitOrder(request);
  const legs = useSubmitLegs();

  const plan = instrument ? slicePlan(parseNumber(draft.quantity), instrument) : null;
  const legOrders = plan?.legs.map((q) =>
    withVariety(evaluateTicket({ ...draft, quantity: String(q) }, instrument, broker, lastPrice).request),
  );
  const sliceable = plan !== null && legOrders !== undefined && legOrders.every((o) => o !== null);

  return {
    request,
    variety,
    chooseVariety: (v) => {
      single.edited();
      setConfirming(false);
      setVariety(v);
    },
    placeAs: (v) => {
      if (!evaluation.request) return;
      setVariety(v);
      setConfirming(false);
      setLastSent('single');
      single.submit({ order: v === 'amo' ? { ...evaluation.request, variety: 'amo' } : evaluation.request });
    },
    single,
    submitOrder: () => {
      setConfirming(false);
      setLastSent('single');
      single.submit();
    },
    plan,
    sliceable,
    legs,
    placeLegs: (options) => {
      if (!sliceable || !legOrders) return;
      setConfirming(false);
      setLastSent('legs');
      legs.submit(
        legOrders.filter((o): o is OrderRequest => o !== null),
        options,
      );
    },
    lastSent,
    confirming,
    setConfirming,
    edited: () => {
      single.edited();
      setConfirming(false);
    },
  };
}
