import { useQuery } from '@tanstack/react-query';
import type { BrokerUsage, RequestRate } from '@shared/domain/usage';
import { sessionQueries } from './queries';

/** "0.03", "0.1", "2.4", "8", "12": a rate as a trader reads it. */
function rate(n: number): string {
  if (n === 0) return '0';
  if (n < 0.1) return n.toFixed(2);
  return String(n < 10 ? Math.round(n * 10) / 10 : Math.round(n));
}

const perSecond = (r: RequestRate): string => `${rate(r.perSecond)} a second, bursts of ${r.burst}`;

/** The meter's tooltip: the window's figures, where the broker's limit comes from, and the desk's own pace. */
export function usageDetail(u: BrokerUsage): string {
  const secs = Math.round(u.windowMs / 1_000);
  const source = u.limitSource === 'broker' ? 'as it publishes in its replies' : 'its documented limit';
  return [
    `Requests to ${u.broker} over the last ${secs} s: ${u.requests} (${rate(u.perSecond)} a second; busiest second: ${u.peakPerSecond}).`,
    `${u.broker} allows ${perSecond(u.limit)} (${source}).`,
    u.pace ? `Tradedesk keeps itself to ${perSecond(u.pace)}.` : 'Tradedesk does not pace itself.',
  ].join(' ');
}

/**
 * "0.1 req/s of 10" in the header: what the desk spends of its broker's request budget
 * (docs/brokers.md §The request meter), pushed by main at most once a second. Turns amber
 * past half of the budget, where a second window or a busy moment could bring 429s.
 */
export function UsageMeter() {
  const { data } = useQuery(sessionQueries.usage());
  if (!data) return null;
  const high = data.perSecond > data.limit.perSecond / 2 || data.peakPerSecond > data.limit.burst / 2;
  return (
    <span
      className={`usage-meter${high ? ' usage-meter--high' : ''}`}
      data-testid="usage-meter"
      title={usageDetail(data)}
      aria-label={`Broker requests: ${rate(data.perSecond)} a second of ${rate(data.limit.perSecond)} allowed`}
    >
      {rate(data.perSecond)} req/s of {rate(data.limit.perSecond)}
    </span>
  );
}
