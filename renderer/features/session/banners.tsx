import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../lib/describe-error';
import { AppError } from '@shared/ipc/app-error';
import { useSessionExpired } from '../../state/session-banner-store';
import { sessionQueries } from './queries';

/**
 * The app-wide banner: a lost or degraded broker link (from `connection.changed` and the polled
 * status), a lost link to the Tradedesk service itself, or an expired session. Panels say their
 * own data is stale; this says why everything is.
 */
export function Banners() {
  const link = useQuery(sessionQueries.connection());
  const expired = useSessionExpired();
  const messages: Array<{ key: string; tone: 'bad' | 'warn'; text: string }> = [];
  if (expired !== null) {
    // The broker's reason often ends "log in again" already; say it once.
    const reason = expired.replace(/[\s.;,]*log in again[\s.]*$/i, '');
    messages.push({ key: 'session', tone: 'bad', text: `Session expired: ${reason}. Log in again to continue.` });
  }
  if (link.error instanceof AppError && (link.error.info.kind === 'network' || link.error.info.kind === 'timeout')) {
    messages.push({
      key: 'bridge',
      tone: 'bad',
      text: `Lost the connection to Tradedesk: ${describeError(link.error)}`,
    });
  } else if (link.data?.rest === 'down') {
    messages.push({
      key: 'rest',
      tone: 'bad',
      text: `Connection to the broker lost${link.data.detail ? `: ${link.data.detail}` : ''}. Figures on screen are not live.`,
    });
  } else if (link.data?.rest === 'degraded') {
    messages.push({
      key: 'rest',
      tone: 'warn',
      text: `Broker connection degraded${link.data.detail ? `: ${link.data.detail}` : ''}. Retrying with backoff.`,
    });
  }
  if (messages.length === 0) return null;
  return (
    <div className="banners">
      {messages.map((m) => (
        <div key={m.key} role="alert" className={`banner banner--${m.tone}`}>
          {m.text}
        </div>
      ))}
    </div>
  );
}
