import { useQuery } from '@tanstack/react-query';
import type { Order } from '../../../shared/domain/order';
import { describeError } from '../../lib/describe-error';
import { formatIstDateTime, formatPrice, formatQty } from '../../lib/format';
import { Dialog } from '../layout/dialog';
import { orderQueries } from './queries';

/**
 * An order's life: every broker transition with its time, and the app's own hops (click →
 * sent → acknowledged → …) with the gap between each, so "why did this take 2 s?" has an answer.
 */
export function OrderHistoryDialog({ order, onClose }: { readonly order: Order; readonly onClose: () => void }) {
  const { data, error, isPending } = useQuery(orderQueries.history(order.orderId));
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
                  <td className="num">{formatPrice(h.averagePrice)}</td>
                  <td>{h.message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.timeline.length ? (
            <table aria-label="Order timeline" className="grid">
              <thead>
                <tr>
                  <th>Hop</th>
                  <th>Time (IST)</th>
                  <th className="num">Gap</th>
                  <th>Source</th>
                </tr>
              </thead>
              <tbody>
                {data.timeline.map((h, i) => (
                  <tr key={i}>
                    <td>{h.hop}</td>
                    <td>{formatIstDateTime(h.at)}</td>
                    <td className="num">{h.gapMs === null ? '' : `${h.gapMs} ms`}</td>
                    <td>{h.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </Dialog>
  );
}
