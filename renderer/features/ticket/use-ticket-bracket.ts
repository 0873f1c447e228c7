import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { BracketRequest } from '@shared/domain/bracket';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import { portfolioQueries } from '../portfolio/queries';
import {
  bracketEdited,
  EMPTY_BRACKET,
  evaluateBracket,
  type BracketDraft,
  type BracketEvaluation,
} from './bracket-draft';
import type { TicketDraft } from './ticket-model';
import { useEntryPrice } from './use-entry-price';
import { useSubmitBracket, type SubmitBracket } from './use-submit-bracket';

/** The ticket's Stop-loss, target & size section: its state, its judgement and its submit. */
export interface TicketBracket {
  readonly draft: BracketDraft;
  readonly evaluation: BracketEvaluation;
  readonly open: boolean;
  setOpen(open: boolean): void;
  /** The bracket Place bracket sends, or null while it is off or anything is wrong. */
  readonly request: BracketRequest | null;
  readonly submitter: SubmitBracket;
  /** The trader typed in the section: a new risk or stop sizes the order at once. */
  edit(patch: Partial<BracketDraft>): void;
}

/**
 * The section's state beside the ticket's (docs/brackets.md §In the ticket): the exits judged
 * against the entry's price and the available funds, the quantity a risk allows handed to
 * `onQuantity` as the trader types the risk or the stop (rounded down to the lot), and the
 * bracket the ticket's order makes with them.
 */
export function useTicketBracket(
  ticket: TicketDraft,
  instrument: Instrument | undefined,
  order: OrderRequest | null,
  onQuantity: (quantity: number) => void,
): TicketBracket {
  const [draft, setDraft] = useState<BracketDraft>(EMPTY_BRACKET);
  const [open, setOpen] = useState(false);
  // Exits are prices of one instrument: another instrument (picked, or the linked group moved)
  // starts with none, never another's stop-loss and target. Reset during render, as React's
  // "state from the previous render" pattern does.
  const [forToken, setForToken] = useState(ticket.instrumentToken);
  if (forToken !== ticket.instrumentToken) {
    setForToken(ticket.instrumentToken);
    setDraft(EMPTY_BRACKET);
  }
  const entry = useEntryPrice(ticket, instrument, open);
  const funds = useQuery(portfolioQueries.funds()).data;
  const context = { side: ticket.side, entry, instrument, availableFunds: funds ? funds.availableMargin : null };
  const evaluation = evaluateBracket(draft, context);
  const submitter = useSubmitBracket();
  const request: BracketRequest | null =
    draft.on && order && evaluation.legs ? { kind: 'entry', entry: order, ...evaluation.legs } : null;
  return {
    draft,
    evaluation,
    open,
    setOpen,
    request,
    submitter,
    edit: (patch) => {
      const next = bracketEdited(draft, patch);
      setDraft(next);
      submitter.edited();
      if (!('risk' in patch || 'riskIn' in patch || 'stop' in patch || 'stopBy' in patch)) return;
      const size = evaluateBracket(next, context).size;
      if (size?.ok) onQuantity(size.quantity);
    },
  };
}
