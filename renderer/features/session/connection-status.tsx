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
      {link ? <span className="muted small"> · stream {link.stream}</span> : null}
    </span>
  );
}
