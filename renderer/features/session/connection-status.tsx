import { useQuery } from '@tanstack/react-query';
import { usePollInterval } from '../layout/use-poll-interval';
import { sessionQueries } from './queries';

/** "Connected to Paper broker as PAPER01", or why not (the page's one live status line). */
export function ConnectionStatus() {
  const { data, error, isPending } = useQuery(sessionQueries.status());
  const refetchInterval = usePollInterval();
  const link = useQuery({ ...sessionQueries.connection(), refetchInterval }).data;
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
      Connected to {data.brokerLabel} as {data.userId}
      {link ? <StreamBadge stream={link.stream} detail={link.detail} /> : null}
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
