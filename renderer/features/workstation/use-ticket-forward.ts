import { useEffect, useRef } from 'react';
import type { DeskCommand, TicketRequest } from '@shared/domain/workstation';
import { takesPrice } from '@shared/trading/rules';
import { call, subscribe } from '../../lib/ipc-client';
import { useInstruments } from '../instruments/queries';
import { useTicketActions, useTicketDraft, useTicketGeneration } from '../ticket/ticket-store';
import { useDeskView } from './desk-queries';
import { panelOn } from './panel-kinds';
import { raisePopout } from './popout-windows';
import { THIS_WINDOW } from './this-window';

/**
 * A ticket asked for in a window that does not draw the ticket (F1/F2, a watchlist's B, a chart's
 * click, a position's Exit) is filled in where the ticket is (docs/workstation.md §Link): this
 * window sends what it would have shown (`desk.command`, type ticket) and the ticket's window
 * opens its form with it and takes the focus. It only fills in the form: nothing is sent without
 * the trader. Mounted once per page.
 */
export function useTicketForward(): void {
  const view = useDeskView();
  const generation = useTicketGeneration();
  const draft = useTicketDraft();
  const { ticketOpened, draftEdited, exitRequested } = useTicketActions();
  const { byToken } = useInstruments();
  const ticketWindow = panelOn(view, 'ticket', 'ticket').window;
  const sent = useRef(generation);

  useEffect(() => {
    if (generation === sent.current) return;
    sent.current = generation;
    if (!view || ticketWindow === THIS_WINDOW || draft.instrumentToken === null) return;
    const ticket: TicketRequest = {
      side: draft.side,
      instrumentToken: draft.instrumentToken,
      patch: {
        orderType: draft.orderType,
        // A price the ticket filled in is re-read from the live touch where the ticket is
        // (docs/renderer.md §The ticket's starting price); a typed or clicked one travels as is.
        ...(draft.priceFrom === undefined ? { price: draft.price } : {}),
        triggerPrice: draft.triggerPrice,
        quantity: draft.quantity,
        product: draft.product,
      },
    };
    raisePopout(ticketWindow);
    call('desk.command', { type: 'ticket', window: ticketWindow, ticket }).catch(() => undefined);
    // Only a new ticket is sent; the draft is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation]);

  useEffect(
    () =>
      subscribe('desk.command', (cmd: DeskCommand) => {
        if (cmd.type !== 'ticket' || cmd.window !== THIS_WINDOW) return;
        const { side, instrumentToken, patch } = cmd.ticket;
        const instrument = byToken.get(instrumentToken);
        if (!instrument) return;
        window.focus();
        if (cmd.ticket.exit && patch?.product && patch.quantity) {
          exitRequested({ instrumentToken, side, quantity: Number(patch.quantity), product: patch.product });
          return;
        }
        ticketOpened(side, instrument);
        if (patch) {
          const { orderType, price, triggerPrice, quantity, product } = patch;
          draftEdited({
            ...(orderType ? { orderType } : {}),
            ...(price !== undefined
              ? { price }
              : orderType && takesPrice(orderType)
                ? { priceFrom: 'pending' as const }
                : {}),
            ...(triggerPrice !== undefined ? { triggerPrice } : {}),
            ...(quantity ? { quantity } : {}),
            ...(product ? { product, productChosen: true } : {}),
          });
        }
      }),
    [byToken, ticketOpened, draftEdited, exitRequested],
  );
}
