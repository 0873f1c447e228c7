import { useQuery } from '@tanstack/react-query';
import { pollInterval } from '../../lib/poll-schedule';
import { sessionQueries } from './queries';
import { NO_MARKET_DATA } from './use-market-data';

/**
 * How often the link's state is re-read from main. Main answers from memory (no broker request);
 * `connection.changed` pushes every change, and this read catches one lost while the link to
 * main was down — which matters, because whether the stream is live decides how often the
 * panels ask the broker (docs/live-data.md §The cadence) — and notices a lost link to main.
 */
const LINK_CHECK_MS = 2_000;
const linkInterval = pollInterval(LINK_CHECK_MS);

/** "Connected to Paper broker as PAPER01", or why not (the page's one live status line). */
export function ConnectionStatus() {
  const { data, error, isPending } = useQuery(sessionQueries.status());
  const link = useQuery({ ...sessionQueries.connection(), refetchInterval: linkInterval }).data;
  if (isPending) return <span role="status">Connecting…</span>;
  if (error)
    return (
      <span role="status" className="status status--down">
        Not connected: {error.message}
      </span>
    );
  if (data.state !== 'connected')
    return (
      <span role="status" className="status status--down">
        Not connected ({data.brokerLabel})
      </span>
    );
  return (
    <span role="status" className={`status ${link && link.rest !== 'up' ? 'status--warn' : 'status--up'}`}>
      {/* The one header item that gives way on a narrow window: ellipsised, whole in its tooltip. */}
      <span className="status__text" title={`Connected to ${data.brokerLabel} as ${data.userId}`}>
        Connected to {data.brokerLabel} as {data.userId}
      </span>
      {data.marketData === 'none' ? (
        <span
          className="stream-badge stream-badge--closed"
          data-testid="stream-state"
          data-state="none"
          title={link?.detail ?? NO_MARKET_DATA}
        >
          No market data
        </span>
      ) : link ? (
        <StreamBadge stream={link.stream} detail={link.detail} />
      ) : null}
    </span>
  );
}

const STREAM_LABEL = { open: 'Live', connecting: 'Reconnecting…', closed: 'Prices polled' } as const;

/**
 * The price stream at a glance: "Live" while ticks flow, "Reconnecting…" (with the reason on
 * hover) while main is replacing the socket, "Prices polled" when it is down and the fallback
 * polls last prices instead.
 */
function StreamBadge({
  stream,
  detail,
}: {
  readonly stream: 'open' | 'connecting' | 'closed';
  readonly detail: string | null;
}) {
  return (
    <span
      className={`stream-badge stream-badge--${stream}`}
      data-testid="stream-state"
      data-state={stream}
      title={detail ?? `Price stream ${stream}`}
    >
      {STREAM_LABEL[stream]}
    </span>
  );
}
