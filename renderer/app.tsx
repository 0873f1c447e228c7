import { useEffect } from 'react';
import { ChartPanel } from './features/chart/chart-panel';
import { DepthPanel } from './features/depth/depth-panel';
import { PanelTabs } from './features/layout/panel-tabs';
import { MarketSession } from './features/market-status/market-session';
import { OptionChainPanel } from './features/options/option-chain-panel';
import { ResizableGroup } from './features/layout/workspace';
import { useQuoteFallback } from './features/market/use-quote-fallback';
import { Watchlist } from './features/market/watchlist';
import { Toaster } from './features/notifications/toaster';
import { useOrderNotifications } from './features/notifications/use-order-notifications';
import { Blotter } from './features/orders/blotter';
import { FundsPanel } from './features/portfolio/funds-panel';
import { HoldingsPanel } from './features/portfolio/holdings-panel';
import { UnconfirmedBadge } from './features/placements/unconfirmed-badge';
import { usePlacementEvents } from './features/placements/queries';
import { PositionsPanel } from './features/portfolio/positions-panel';
import { Banners } from './features/session/banners';
import { ConnectionStatus } from './features/session/connection-status';
import { SessionGate } from './features/session/session-dialog';
import { useBridgeEvents } from './features/session/use-bridge-events';
import { OrderTicketPanel } from './features/ticket/order-ticket';
import { useTicketHotkeys } from './features/ticket/use-ticket-hotkeys';
import { useSettingsActions, useSoundOn, useTheme } from './state/settings-store';

/**
 * The application shell: top bar, banners, and the resizable workspace — ticket and watchlist
 * on the left; on the right the chart beside funds and holdings, over the blotter and positions
 * across the full width (they have the most columns: at 1440 px every column fits).
 */
export function App() {
  const theme = useTheme();
  const sound = useSoundOn();
  const { themeToggled, soundToggled } = useSettingsActions();
  useBridgeEvents();
  usePlacementEvents();
  useOrderNotifications();
  useTicketHotkeys();
  useQuoteFallback();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="app">
      <header className="topbar">
        <h1>Tradedesk</h1>
        <ConnectionStatus />
        <UnconfirmedBadge />
        <MarketSession />
        <span className="topbar__spacer" />
        <span className="muted small">F1 buy · F2 sell · Esc close · times in IST</span>
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
      <main className="workspace">
        <ResizableGroup
          id="layout"
          orientation="horizontal"
          panels={[
            [
              'left',
              24,
              '380px', // the watchlist's symbols in full (docs/architecture.md, Layout on small screens)
              <ResizableGroup
                key="left"
                id="layout-left"
                orientation="vertical"
                panels={[
                  ['ticket', 52, '400px', <TicketSlot key="t" />],
                  ['watchlist', 48, 15, <Watchlist key="w" />],
                ]}
              />,
            ],
            [
              'main',
              76,
              40,
              <ResizableGroup
                key="main"
                id="layout-main"
                orientation="vertical"
                panels={[
                  [
                    'upper',
                    44,
                    20,
                    <ResizableGroup
                      key="upper"
                      id="layout-upper"
                      orientation="horizontal"
                      panels={[
                        [
                          'chart',
                          61,
                          30,
                          <PanelTabs
                            key="c"
                            id="chart-options"
                            tabs={[
                              ['chart', 'Chart', <ChartPanel key="c" />],
                              ['options', 'Option chain', <OptionChainPanel key="o" />],
                            ]}
                          />,
                        ],
                        [
                          'funds-holdings',
                          39,
                          '440px', // every holdings column; the funds figures in three columns
                          <ResizableGroup
                            key="fh"
                            id="layout-funds-holdings"
                            orientation="vertical"
                            panels={[
                              ['funds', 42, '128px', <FundsPanel key="f" />],
                              [
                                'holdings',
                                58,
                                20,
                                <PanelTabs
                                  key="h"
                                  id="depth-holdings"
                                  tabs={[
                                    ['depth', 'Depth', <DepthPanel key="d" />],
                                    ['holdings', 'Holdings', <HoldingsPanel key="h" />],
                                  ]}
                                />,
                              ],
                            ]}
                          />,
                        ],
                      ]}
                    />,
                  ],
                  ['orders', 34, 15, <Blotter key="b" />],
                  ['positions', 22, 10, <PositionsPanel key="p" />],
                ]}
              />,
            ],
          ]}
        />
      </main>
      <Toaster />
      <SessionGate />
    </div>
  );
}

/** The ticket in a plain panel frame (its own header carries Buy/Sell). */
function TicketSlot() {
  return (
    <section className="panel" aria-label="Ticket">
      <div className="panel__body panel__body--pad">
        <OrderTicketPanel />
      </div>
    </section>
  );
}
