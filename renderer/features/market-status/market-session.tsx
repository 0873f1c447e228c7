import { useMarketStatus } from './queries';
import { describeSession, sessionOf } from './session-model';
import './market-session.css';

/**
 * The header's word on the market: "Paper market — simulated session" when the paper broker
 * runs its own session clock (a new user's default: a market that is open whatever the hour),
 * and what NSE is doing — "NSE open · closes 15:30", "NSE closed (After hours) · opens 09:15
 * Tue 24 Nov". Every exchange's session is in the title.
 */
export function MarketSession() {
  const status = useMarketStatus();
  if (!status) return null;
  const nse = sessionOf(status, 'NSE');
  const all = status.exchanges.map((e) => `${e.exchange} ${describeSession(e, status.now)}`).join('\n');
  return (
    <span className="market-session" data-testid="market-session" title={all}>
      {status.simulated ? <span className="market-session__sim">Paper market — simulated session</span> : null}
      {nse ? (
        <span
          className={`market-session__phase market-session__phase--${nse.phase}`}
          data-testid="market-phase"
          data-phase={nse.phase}
        >
          NSE {describeSession(nse, status.now)}
        </span>
      ) : null}
    </span>
  );
}
