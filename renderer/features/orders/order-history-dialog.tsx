import { onMarketClock } from '../../lib/market-clock';
import { useQuery } from '@tanstack/react-query';
import type { LifecycleHop, Order } from '@shared/domain/order';
import { describeError } from '../../lib/describe-error';
import { formatIstDateTime, formatIstTime, formatPrice, formatQty } from '../../lib/format';
import { Dialog } from '../layout/dialog';
import { orderQueries } from './queries';
import { useInstruments } from '../instruments/queries';

/**
 * An order's life: every broker transition with its time, and the app's own hops (click →
 * sent → acknowledged → …) with the gap between each, so "why did this take 2 s?" has an answer.
 */
export function OrderHistoryDialog({ order, onClose }: { readonly order: Order; readonly onClose: () => void }) {
  const { data, error, isPending } = useQuery(orderQueries.history(order.orderId));
  const tick = useInstruments().byToken.get(order.instrumentToken)?.tickSize;
  return (
    <Dialog title={`Order ${order.orderId} · ${order.tradingsymbol}`} onClose={onClose} wide>
      {isPending ? <p>Loading history…</p> : null}
      {error ? <p role="alert">Could not load the history: {describeError(error)}</p> : null}
      {data ? (
        <>
          <table aria-label="Order history" className="grid">
            <thead>
              <tr>
                <th>Time (IST)</th>
                <th>Status</th>
                <th className="num">Filled</th>
                <th className="num">Avg</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {data.history.map((h, i) => (
                <tr key={i}>
                  <td>{formatIstDateTime(h.at)}</td>
                  <td>{h.status}</td>
                  <td className="num">{formatQty(h.filledQuantity)}</td>
                  <td className="num">{formatPrice(h.averagePrice, tick)}</td>
                  <td>{h.message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.timeline.length ? <LifecycleTimeline hops={data.timeline} /> : null}
        </>
      ) : null}
    </Dialog>
  );
}

/** The hop names main records, as a trader reads them. */
const HOP_LABEL: Record<string, string> = {
  clicked: 'Clicked',
  journaled: 'Intent journaled',
  sent: 'Request sent',
  acknowledged: 'Broker acknowledged',
  recovered: 'Recovered after restart',
};

function hopLabel(h: LifecycleHop): string {
  if (h.source === 'app') {
    const seen = /^(.+) seen on stream$/.exec(h.hop);
    return seen ? `Stream update: ${seen[1]!.toUpperCase()}` : (HOP_LABEL[h.hop] ?? h.hop);
  }
  return `Broker: ${h.hop.toUpperCase()}`;
}

/**
 * `10:00:00.042` for the app's millisecond times, `10:00:02` for the broker's whole seconds; all
 * on the market's clock (the app's own hops shifted to it, docs/desk.md §One clock).
 */
function hopTime(h: LifecycleHop): string {
  if (h.source !== 'app') return formatIstTime(h.at);
  const at = onMarketClock(h.at);
  return `${formatIstTime(at)}.${String(((at % 1000) + 1000) % 1000).padStart(3, '0')}`;
}

function formatGap(ms: number | null): string {
  if (ms === null) return '';
  return ms < 1_000 ? `+${ms} ms` : `+${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * Where the time went: each hop with its time and the gap since the previous hop on the same
 * clock: app hops on the main process's (ms), broker hops on the broker's (whole seconds). The
 * total is the app's own, from the click to its last hop, on one clock (never across the two).
 */
function LifecycleTimeline({ hops }: { readonly hops: readonly LifecycleHop[] }) {
  const app = hops
    .filter((h) => h.source === 'app')
    .map((h) => Date.parse(h.at))
    .filter(Number.isFinite);
  const span = app.length > 1 ? Math.max(...app) - Math.min(...app) : null;
  return (
    <section className="timeline" aria-label="Lifecycle">
      <h3>
        Lifecycle{' '}
        {span !== null ? (
          <span className="muted small" data-testid="lifecycle-span">
            · {formatGap(span).replace('+', '')} from the click to the app&apos;s last hop
          </span>
        ) : null}
      </h3>
      <ol aria-label="Order timeline" className="timeline__list">
        {hops.map((h, i) => (
          <li key={i} className={`timeline__hop timeline__hop--${h.source}`} data-hop={h.hop}>
            <span className="timeline__dot" aria-hidden="true" />
            <span className="timeline__name">{hopLabel(h)}</span>
            <time className="timeline__at muted" dateTime={h.at}>
              {hopTime(h)}
            </time>
            <span className="timeline__gap">{formatGap(h.gapMs)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
