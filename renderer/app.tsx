import { InstrumentList } from './features/instruments/instrument-list';
import { ConnectionStatus } from './features/session/connection-status';

/** The application shell. */
export function App() {
  return (
    <div className="app">
      <header className="topbar">
        <h1>Tradedesk</h1>
        <ConnectionStatus />
      </header>
      <main className="workspace">
        <InstrumentList />
      </main>
    </div>
  );
}
