import type { Instrument } from '@shared/domain/instrument';
import type { Position } from '@shared/domain/portfolio';
import type { TicketDraft } from '../ticket/ticket-model';
import { ocoForPosition } from './gtt-model';
import { useGttDialogActions } from './gtt-store';

/**
 * The ticket's GTT mode (docs/gtt.md §Creating one): the ticket's instrument, side, quantity and
 * product as a single-trigger GTT, its typed price as both the trigger and the limit price.
 */
export function GttFromTicket(props: { readonly instrument: Instrument | undefined; readonly draft: TicketDraft }) {
  const { opened } = useGttDialogActions();
  const { instrument, draft } = props;
  const price = draft.price || draft.triggerPrice;
  return (
    <button
      type="button"
      disabled={!instrument}
      title="Place this as a GTT: the broker sends it when the price reaches the trigger"
      onClick={() =>
        instrument &&
        opened(instrument.instrumentToken, {
          type: 'single',
          side: draft.side,
          quantity: draft.quantity,
          product: draft.product,
          trigger: price,
          price,
          targetTrigger: '',
          targetPrice: '',
        })
      }
    >
      GTT…
    </button>
  );
}

/** A position row's GTT: an OCO exiting it, stop-loss and target 2% either side of the last price. */
export function GttFromPosition(props: {
  readonly position: Position;
  readonly lastPrice: number;
  readonly tickSize: number | undefined;
}) {
  const { opened } = useGttDialogActions();
  const { position: p } = props;
  return (
    <button
      type="button"
      aria-label={`GTT ${p.tradingsymbol} ${p.product}`}
      title="Protect this position with an OCO GTT: a stop-loss below and a target above"
      onClick={() => opened(p.instrumentToken, ocoForPosition(p, props.lastPrice, props.tickSize ?? 0.05))}
    >
      GTT
    </button>
  );
}
