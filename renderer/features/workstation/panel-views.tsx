import type { ComponentType } from 'react';
import { lazyPanel } from '../layout/lazy-panel';
import { useDeskPanel } from './desk-panel';
import { DeskPanelControls } from './panel-controls';

/**
 * What each kind of panel draws (docs/workstation.md §A panel joins the workstation), each loaded
 * on its own: a pop-out fetches and runs only the code of the panels it shows. The main window
 * draws its kinds' own panels from its workspace tree (app.tsx) and these for another panel of a
 * kind (a second chart).
 */
const VIEWS: Readonly<Record<string, ComponentType>> = {
  ticket: lazyPanel('Ticket', 'ticket', () =>
    import('../ticket/order-ticket').then((m) => ticketFrame(m.OrderTicketPanel)),
  ),
  watchlist: lazyPanel('Watchlist', 'watchlist', () => import('../market/watchlist').then((m) => m.Watchlist)),
  chart: lazyPanel('Chart', 'chart', () => import('../chart/chart-panel').then((m) => m.ChartPanel)),
  options: lazyPanel('Option chain', 'option chain', () =>
    import('../options/option-chain-panel').then((m) => m.OptionChainPanel),
  ),
  funds: lazyPanel('Funds', 'funds', () => import('../portfolio/funds-panel').then((m) => m.FundsPanel)),
  depth: lazyPanel('Depth', 'depth', () => import('../depth/depth-panel').then((m) => m.DepthPanel)),
  holdings: lazyPanel('Holdings', 'holdings', () => import('../portfolio/holdings-panel').then((m) => m.HoldingsPanel)),
  orders: lazyPanel('Orders', 'orders', () => import('../orders/blotter').then((m) => m.Blotter)),
  trades: lazyPanel('Trades', 'trades', () => import('../trades/trades-panel').then((m) => m.TradesPanel)),
  gtt: lazyPanel('GTT', 'GTTs', () => import('../gtt/gtt-panel').then((m) => m.GttPanel)),
  positions: lazyPanel('Positions', 'positions', () =>
    import('../portfolio/positions-panel').then((m) => m.PositionsPanel),
  ),
  basket: lazyPanel('Basket', 'basket', () => import('../basket/basket-panel').then((m) => m.BasketPanel)),
};

/** The panel of `kind`, loading its code on first use. */
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
