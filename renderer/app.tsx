import { useEffect, type ReactNode } from 'react';
import { DepthPanel } from './features/depth/depth-panel';
import { CommandPalette } from './features/keyboard/command-palette';
import { ShortcutsSheet } from './features/keyboard/shortcuts-sheet';
import { useOverlayHotkeys } from './features/keyboard/use-overlay-hotkeys';
import { FirstScreenFirst, Later } from './features/layout/first-screen';
import { SLOTS } from './features/layout/slots';
import { Workspace, type WorkspaceGroup } from './features/layout/workspace';
import { MarketSession } from './features/market-status/market-session';
import { Watchlist } from './features/market/watchlist';
import { Toaster } from './features/notifications/toaster';
import { useOrderNotifications } from './features/notifications/use-order-notifications';
import { Blotter } from './features/orders/blotter';
import { FundsPanel } from './features/portfolio/funds-panel';
import { GttDialogHost } from './features/gtt/gtt-dialog';
import { UnconfirmedBadge } from './features/placements/unconfirmed-badge';
import { usePlacementEvents } from './features/placements/queries';
import { useBracketEvents } from './features/brackets/queries';
import { UnprotectedBadge, useUnprotectedToasts } from './features/brackets/unprotected-badge';
import { PositionsPanel } from './features/portfolio/positions-panel';
import { KillSwitchButton } from './features/safety/kill-switch';
import { MtmHeader } from './features/mtm/mtm-header';
import { RiskStatusChip } from './features/safety/risk-status';
import { SquareOffChip } from './features/square-off/square-off-chip';
import { UpdateNotice } from './features/updates/update-notice';
import { DriftDialogSlot, DriftHeaderButton } from './features/drift/drift-alarm';
import { AlertsHeaderButton, SafetyLayer } from './features/safety/safety-layer';
import { StrategyHeaderButton, StrategySlot } from './features/strategy/strategy-slot';
import { JournalHeaderButton, JournalSlot } from './features/journal/journal-slot';
import { Banners } from './features/session/banners';
import { ConnectionStatus } from './features/session/connection-status';
import { SessionGate } from './features/session/session-dialog';
import { UsageMeter } from './features/session/usage-meter';
import { useBridgeEvents } from './features/session/use-bridge-events';
import { OrderTicketPanel } from './features/ticket/order-ticket';
import { useTicketHotkeys } from './features/ticket/use-ticket-hotkeys';
import { firstScreenDrawn } from './features/workstation/desk-queries';
import { DeskSlot, type SlotKind } from './features/workstation/desk-slot';
import { PanelView, ticketFrame } from './features/workstation/panel-views';
import { useEveryPage } from './features/workstation/use-every-page';
import { usePopoutOpener } from './features/workstation/use-popout-opener';
import { useWorkspaceLoad } from './features/workstation/use-workspace-load';
import { WorkspaceSwitcher } from './features/workstation/workspace-switcher';
import { useSettingsActions, useSoundOn, useTheme } from './state/settings-store';
import { PaintRateNote } from './features/market/paint-rate-note';

// What the first screen does not need to paint the book loads behind it: the chart's canvas
// library is a fifth of the code, the other tabs are hidden until chosen (`panel-views.tsx`).
const ChartPanel = () => <PanelView kind="chart" />;
const OptionChainPanel = () => <PanelView kind="options" />;
const HoldingsPanel = () => <PanelView kind="holdings" />;
const TradesPanel = () => <PanelView kind="trades" />;
const GttPanel = () => <PanelView kind="gtt" />;
const BasketPanel = () => <PanelView kind="basket" />;
const LadderPanel = () => <PanelView kind="ladder" />;
const BracketsPanel = () => <PanelView kind="brackets" />;

/** The ticket in a plain panel frame (its own header carries Buy/Sell). */
const TicketSlot = ticketFrame(OrderTicketPanel);

/** A tab of a desk slot whose panel draws after the first screen (`Later`), saying "Loading {what}…" until then. */
function later(kind: string, title: string, what: string, panel: ReactNode): SlotKind {
  return [
    kind,
    title,
    <Later key={kind} title={title} what={what}>
      {panel}
    </Later>,
  ];
}

/**
 * The workspace: ticket and watchlist on the left; on the right the chart (or the option chain)
 * beside funds over the depth ladder (or holdings), over the blotter (or the trade book) and positions (or the basket) across the full width (they have the most columns:
 * at 1440 px every column fits). Pixel minimums hold what a trader reads at a glance on a
 * 1280×720 screen (docs/renderer.md §Layout on small screens). Group ids key the saved sizes.
 */
const WORKSPACE: WorkspaceGroup = {
  id: 'layout',
  orientation: 'horizontal',
  panels: [
    {
      id: 'left',
      defaultPercent: 24,
      min: '380px', // the watchlist's symbols in full beside bid/offer
      split: {
        id: 'layout-left',
        orientation: 'vertical',
        panels: [
          {
            id: 'ticket',
            defaultPercent: 56,
            min: '452px', // the ticket's fields, its bracket section's toggle and Place order
            panel: <DeskSlot kinds={[later('ticket', 'Ticket', 'ticket', <TicketSlot />)]} />,
          },
          {
            id: 'watchlist',
            defaultPercent: 44,
            min: 15,
            panel: <DeskSlot kinds={[later('watchlist', 'Watchlist', 'watchlist', <Watchlist />)]} />,
          },
        ],
      },
    },
    {
      id: 'main',
      defaultPercent: 76,
      min: 40,
      split: {
        id: 'layout-main',
        orientation: 'vertical',
        panels: [
          {
            id: 'upper',
            defaultPercent: 44,
            min: 20,
            split: {
              id: 'layout-upper',
              orientation: 'horizontal',
              panels: [
                {
                  id: 'chart',
                  defaultPercent: 61,
                  min: 30,
                  panel: (
                    <DeskSlot
                      id={SLOTS.chart.id}
                      kinds={[
                        later(SLOTS.chart.chart, 'Chart', 'chart', <ChartPanel />),
                        later(SLOTS.chart.options, 'Option chain', 'option chain', <OptionChainPanel />),
                        later(SLOTS.chart.ladder, 'Ladder', 'price ladder', <LadderPanel />),
                      ]}
                    />
                  ),
                },
                {
                  id: 'funds-holdings',
                  defaultPercent: 39,
                  min: '440px', // every holdings column; the funds figures in three columns
                  split: {
                    id: 'layout-funds-holdings',
                    orientation: 'vertical',
                    panels: [
                      {
                        id: 'funds',
                        defaultPercent: 42,
                        min: '128px',
                        panel: <DeskSlot kinds={[later('funds', 'Funds', 'funds', <FundsPanel />)]} />,
                      },
                      {
                        id: 'holdings',
                        defaultPercent: 58,
                        min: 20,
                        panel: (
                          <DeskSlot
                            id={SLOTS.depth.id}
                            kinds={[
                              later(SLOTS.depth.depth, 'Depth', 'depth', <DepthPanel />),
                              later(SLOTS.depth.holdings, 'Holdings', 'holdings', <HoldingsPanel />),
                            ]}
                          />
                        ),
                      },
                    ],
                  },
                },
              ],
            },
          },
          {
            id: 'orders',
            defaultPercent: 36,
            min: 15,
            panel: (
              <DeskSlot
                id={SLOTS.orders.id}
                kinds={[
                  [SLOTS.orders.orders, 'Orders', <Blotter key="o" />],
                  [SLOTS.orders.trades, 'Trades', <TradesPanel key="t" />],
                  [SLOTS.orders.gtt, 'GTT', <GttPanel key="g" />],
                  [SLOTS.orders.brackets, 'Brackets', <BracketsPanel key="br" />],
                ]}
              />
            ),
          },
          {
            id: 'positions',
            defaultPercent: 20,
            min: 10,
            panel: (
              <DeskSlot
                id={SLOTS.positions.id}
                kinds={[
                  later(SLOTS.positions.positions, 'Positions', 'positions', <PositionsPanel />),
                  later(SLOTS.positions.basket, 'Basket', 'basket', <BasketPanel />),
                ]}
              />
            ),
          },
        ],
      },
    },
  ],
};

/** The application shell: top bar, banners, the workspace, toasts, the keyboard's overlays and the session gate. */
export function App() {
  const theme = useTheme();
  const sound = useSoundOn();
  const { themeToggled, soundToggled } = useSettingsActions();
  useBridgeEvents();
  usePlacementEvents();
  useBracketEvents();
  useUnprotectedToasts();
  useOrderNotifications();
  useTicketHotkeys();
  useOverlayHotkeys();
  useEveryPage();
  usePopoutOpener();
  const loadKey = useWorkspaceLoad();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="app">
      <header className="topbar">
        <h1>Tradedesk</h1>
        <WorkspaceSwitcher />
        <ConnectionStatus />
        <UsageMeter />
        <PaintRateNote />
        <UnconfirmedBadge />
        <UnprotectedBadge />
        <RiskStatusChip />
        <SquareOffChip />
        <MtmHeader />
        <UpdateNotice />
        <DriftHeaderButton />
        <AlertsHeaderButton />
        <StrategyHeaderButton />
        <JournalHeaderButton />
        <span className="topbar__spacer" />
        <KillSwitchButton />
        <label className="check small">
          <input type="checkbox" checked={sound} onChange={soundToggled} />
          Sound
        </label>
        <button
          type="button"
          onClick={themeToggled}
          aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
        >
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      <Banners />
      <SafetyLayer />
      <DriftDialogSlot />
      <main className="workspace">
        <FirstScreenFirst onDrawn={firstScreenDrawn}>
          <Workspace key={loadKey} layout={WORKSPACE} />
        </FirstScreenFirst>
      </main>
      <GttDialogHost />
      <StrategySlot />
      <JournalSlot />
      <footer className="statusbar">
        <MarketSession />
        <span className="muted">times in IST</span>
        <span className="muted statusbar__hint">
          <kbd>Ctrl+K</kbd> find · <kbd>?</kbd> keys
        </span>
        <Toaster />
      </footer>
      <CommandPalette />
      <ShortcutsSheet />
      <SessionGate />
    </div>
  );
}
