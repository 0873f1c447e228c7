import type { ComponentType } from 'react';
import { lazyPanel } from '../layout/lazy-panel';
import { DepthPanel } from '../depth/depth-panel';
import { Watchlist } from '../market/watchlist';
import { Blotter } from '../orders/blotter';
import { FundsPanel } from '../portfolio/funds-panel';
import { PositionsPanel } from '../portfolio/positions-panel';
import { OrderTicketPanel } from '../ticket/order-ticket';
import { useDeskPanel } from './desk-panel';
import { DeskPanelControls } from './panel-controls';

/**
 * What each kind of panel draws (docs/workstation.md §A panel joins the workstation): the kinds of
 * the main window's first screen come with the entry chunk every page loads; the others load when
 * a window first shows one. The main window draws its kinds' own panels from its workspace tree
 * (app.tsx) and these for another panel of a kind (a second chart).
 */
const VIEWS: Readonly<Record<string, ComponentType>> = {
  // The main window's first screen (in the entry chunk): a pop-out has them already.
  ticket: ticketFrame(OrderTicketPanel),
  watchlist: Watchlist,
  funds: FundsPanel,
  depth: DepthPanel,
  orders: Blotter,
  positions: PositionsPanel,
  // The rest load when first shown.
  chart: lazyPanel('Chart', 'chart', () => import('../chart/chart-panel').then((m) => m.ChartPanel)),
  options: lazyPanel('Option chain', 'option chain', () =>
    import('../options/option-chain-panel').then((m) => m.OptionChainPanel),
  ),
  holdings: lazyPanel('Holdings', 'holdings', () => import('../portfolio/holdings-panel').then((m) => m.HoldingsPanel)),
  trades: lazyPanel('Trades', 'trades', () => import('../trades/trades-panel').then((m) => m.TradesPanel)),
  gtt: lazyPanel('GTT', 'GTTs', () => import('../gtt/gtt-panel').then((m) => m.GttPanel)),
  ladder: lazyPanel('Ladder', 'price ladder', () => import('../ladder/ladder-panel').then((m) => m.LadderPanel)),
  brackets: lazyPanel('Brackets', 'brackets', () => import('../brackets/brackets-panel').then((m) => m.BracketsPanel)),
  basket: lazyPanel('Basket', 'basket', () => import('../basket/basket-panel').then((m) => m.BasketPanel)),
};

/** The panel of `kind` (its code loaded on first use when it is not in the entry). */
export function PanelView({ kind }: { readonly kind: string }) {
  const View = VIEWS[kind];
  return View ? <View /> : <p className="empty">Unknown panel {kind}</p>;
}

/** The ticket in a plain panel frame: its own header carries Buy/Sell, the desk's controls float over it. */
export function ticketFrame(Ticket: ComponentType): ComponentType {
  function TicketFrame() {
    const desk = useDeskPanel();
    return (
      <section
        className="panel"
        aria-label="Ticket"
        data-desk-panel={desk?.id}
        data-group={desk?.link ?? undefined}
        tabIndex={desk ? -1 : undefined}
      >
        <div className="ticket-frame__controls">
          <DeskPanelControls />
        </div>
        <div className="panel__body panel__body--pad">
          <Ticket />
        </div>
      </section>
    );
  }
  return TicketFrame;
}
