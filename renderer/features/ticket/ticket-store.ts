import { create } from 'zustand';
import type { Instrument } from '@shared/domain/instrument';
import type { Product, TransactionType } from '@shared/domain/order';
import { draftForInstrument, EMPTY_DRAFT, type TicketDraft } from './ticket-model';

/**
 * The order ticket's UI state: whether it is open and what the trader has typed.
 *
 * Values are kept as typed (strings for numbers) so a half-typed "101." is not lost; the
 * ticket's model turns them into an order and judges it with the shared rules. Not persisted:
 * a ticket left filled in overnight is a hazard, not a convenience.
 */

/** What an Exit on a position pre-fills. */
export interface ExitRequest {
  readonly instrumentToken: number;
  readonly side: TransactionType;
  readonly quantity: number;
  readonly product: Product;
}

interface TicketState {
  readonly open: boolean;
  readonly draft: TicketDraft;
  /** The instrument the trader last selected anywhere (watchlist row, ticket), for F1/F2. */
  readonly selectedToken: number | null;
  /** Bumped whenever the ticket is (re)opened, so the form can reset its submit state and focus. */
  readonly generation: number;
  readonly actions: {
    /** Opens a ticket on `side`, for `instrument` when given (else the one already in the ticket). */
    ticketOpened(side: TransactionType, instrument?: Instrument): void;
    ticketClosed(): void;
    instrumentSelected(token: number): void;
    draftEdited(patch: Partial<TicketDraft>): void;
    exitRequested(exit: ExitRequest): void;
  };
}

/**
 * A price set by the edit (typed, or clicked on the chart or the ladder) has no source and is
 * never moved; a side change re-prices one the ticket filled in, since the touch is the other side.
 */
function priceFromAfter(draft: TicketDraft, patch: Partial<TicketDraft>): TicketDraft['priceFrom'] {
  if ('priceFrom' in patch) return patch.priceFrom;
  if ('price' in patch) return undefined;
  if (patch.side !== undefined && patch.side !== draft.side && draft.priceFrom !== undefined) return 'pending';
  return draft.priceFrom;
}

const useTicketStore = create<TicketState>()((set) => ({
  open: true,
  draft: EMPTY_DRAFT,
  selectedToken: null,
  generation: 0,
  actions: {
    ticketOpened: (side, instrument) =>
      set((s) => ({
        open: true,
        generation: s.generation + 1,
        selectedToken: instrument?.instrumentToken ?? s.selectedToken,
        // A price the ticket filled in is put on the live touch again at each opening
        // (price-prefill.ts); one the trader typed or clicked is kept.
        draft:
          instrument && instrument.instrumentToken !== s.draft.instrumentToken
            ? draftForInstrument({ ...s.draft, side }, instrument)
            : { ...s.draft, side, priceFrom: s.draft.priceFrom === undefined ? undefined : 'pending' },
      })),
    ticketClosed: () => set({ open: false }),
    instrumentSelected: (token) => set({ selectedToken: token }),
    draftEdited: (patch) =>
      set((s) => ({
        draft: { ...s.draft, ...patch, priceFrom: priceFromAfter(s.draft, patch) },
        selectedToken: patch.instrumentToken ?? s.selectedToken,
      })),
    exitRequested: (exit) =>
      set((s) => ({
        open: true,
        generation: s.generation + 1,
        selectedToken: exit.instrumentToken,
        draft: {
          ...EMPTY_DRAFT,
          instrumentToken: exit.instrumentToken,
          side: exit.side,
          quantity: String(exit.quantity),
          product: exit.product,
          productChosen: true,
        },
      })),
  },
}));

/** Whether the ticket is open. */
export const useTicketOpen = (): boolean => useTicketStore((s) => s.open);
/** What the trader typed. */
export const useTicketDraft = (): TicketDraft => useTicketStore((s) => s.draft);
/** The instrument F1/F2 opens a ticket for. */
export const useSelectedToken = (): number | null => useTicketStore((s) => s.selectedToken);
/** Changes each time the ticket is opened afresh. */
export const useTicketGeneration = (): number => useTicketStore((s) => s.generation);
/** The ticket's actions, stable across renders. */
export const useTicketActions = (): TicketState['actions'] => useTicketStore((s) => s.actions);
