import { useEffect } from 'react';
import { ResizableGroup } from './features/layout/workspace';
import { ChartPanel } from './features/chart/chart-panel';
import { useQuoteFallback } from './features/market/use-quote-fallback';
import { Watchlist } from './features/market/watchlist';
import { Toaster } from './features/notifications/toaster';
import { useOrderNotifications } from './features/notifications/use-order-notifications';
import { Blotter } from './features/orders/blotter';
import { FundsPanel } from './features/portfolio/funds-panel';
import { HoldingsPanel } from './features/portfolio/holdings-panel';
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
 * on the left, the chart over orders and positions in the middle, funds over holdings on the right (the
 * arrangement of the terminals Indian traders already use).
 */
export function App() {
  const theme = useTheme();
  const sound = useSoundOn();
  const { themeToggled, soundToggled } = useSettingsActions();
  useBridgeEvents();
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
        <span className="topbar__spacer" />
        <span className="muted small">F1 buy · F2 sell · Esc close · times in IST</span>
        <label className="check small">
          <input type="checkbox" checked={sound} onChange={soundToggled} />
          Sound
        </label>
        <button type="button" onClick={themeToggled} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      <Banners />
      <main className="workspace">
        <ResizableGroup
          id="workspace"
          orientation="horizontal"
          panels={[
            [
              'left',
              24,
              16,
              <ResizableGroup
                key="left"
                id="left"
                orientation="vertical"
                panels={[
                  ['ticket', 58, 25, <TicketSlot key="t" />],
                  ['watchlist', 42, 15, <Watchlist key="w" />],
                ]}
              />,
            ],
            [
              'center',
              56,
              30,
              <ResizableGroup
                key="center"
                id="center-chart"
                orientation="vertical"
                panels={[
                  ['chart', 50, 20, <ChartPanel key="c" />],
                  [
                    'lower',
                    50,
                    25,
                    <ResizableGroup
                      key="lower"
                      id="center"
                      orientation="vertical"
                      panels={[
                        ['orders', 62, 20, <Blotter key="b" />],
                        ['positions', 38, 15, <PositionsPanel key="p" />],
                      ]}
                    />,
                  ],
                ]}
              />,
            ],
            [
              'right',
              20,
              12,
              <ResizableGroup
                key="right"
                id="right"
                orientation="vertical"
                panels={[
                  ['funds', 45, 15, <FundsPanel key="f" />],
                  ['holdings', 55, 15, <HoldingsPanel key="h" />],
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
