import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from './queries';

/** "Connected to Paper broker as PAPER01", or why not. */
export function ConnectionStatus() {
  const { data, error, isPending } = useQuery(sessionQueries.status());
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
    <span role="status" className="status status--up">
      Connected to {data.brokerLabel} as {data.userId}
    </span>
  );
}
