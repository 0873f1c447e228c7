import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isWorking, type Order, type OrderStatus } from '@shared/domain/order';
import type { IpcError } from '@shared/ipc/result';
import { orderMessage } from '../orders/order-message';
import { orderQueries } from '../orders/queries';
import { statusClass } from '../orders/status-class';
import { PlacementActions } from '../placements/placement-actions';
import { refusalText, seenAtBrokerText } from '../placements/placement-model';
import '../placements/placements.css';
import type { TicketOutcome } from './place-outcome';
import { ticketFieldOf, type TicketField } from './ticket-model';

const FIELD_LABEL: Readonly<Record<TicketField, string>> = {
  symbol: 'Symbol',
  transactionType: 'Side',
  quantity: 'Quantity',
  orderType: 'Order type',
  product: 'Product',
  validity: 'Validity',
  price: 'Price',
  triggerPrice: 'Trigger price',
  variety: 'After-market order',
};

/** The ticket fields a refusal names (its `field` and every entry of `fields`), in order, once each. */
export function refusedFields(error: IpcError): TicketField[] {
  const named = [error.field, ...(error.fields ?? []).map((f) => f.field)].map(ticketFieldOf);
  return [...new Set(named.filter((f): f is TicketField => f !== null))];
}

/**
 * What became of the trader's last click, under the Place button: exactly one of "Placing…",
 * placed (order id and live status), refused ("Not placed", nothing was created), or not yet
 * confirmed (the reference, until the unconfirmed list settles it) — see docs/money-path.md,
 * "The money path on screen".
 */
export function OrderOutcome({ outcome, id }: { readonly outcome: TicketOutcome; readonly id: string }) {
  return (
    <div id={id} className="ticket__outcome" aria-live="polite" data-testid="ticket-outcome" data-state={outcome.kind}>
      <OutcomeBody outcome={outcome} />
    </div>
  );
}

/** The outcome's words alone (the ticket's line, or one leg of a sliced order). */
export function OutcomeBody({ outcome }: { readonly outcome: TicketOutcome }) {
  switch (outcome.kind) {
    case 'idle':
      return null;
    case 'placing':
      return <span>Placing…</span>;
    case 'placed':
      return <Placed orderId={outcome.orderId} status={outcome.status} />;
    case 'refused': {
      const fields = refusedFields(outcome.error);
      return (
        <span role="alert" className="inline-error">
          {fields.length > 0
            ? `Not placed — see ${fields.map((f) => FIELD_LABEL[f]).join(', ')}`
            : refusalText(outcome.error)}
        </span>
      );
    }
    case 'unconfirmed':
      return (
        <div className="outcome-unconfirmed">
          <strong className="placement-mark placement-mark--checking">Not yet confirmed</strong>{' '}
          <UnconfirmedText outcome={outcome} />
        </div>
      );
    case 'needs_decision':
      return (
        <div className="outcome-unconfirmed">
          <strong className="placement-mark placement-mark--needs_decision">Needs your decision</strong> The broker has
          no order <Reference id={outcome.placement.clientOrderId} />. Place it again, or discard it?{' '}
          <PlacementActions placement={outcome.placement} />
        </div>
      );
    case 'not_placed':
      return (
        <span className="outcome-not-placed">
          Not found at the broker — most likely not placed (<Reference id={outcome.clientOrderId} />)
        </span>
      );
    case 'discarded':
      return (
        <span className="outcome-not-placed">
          Discarded — order <Reference id={outcome.clientOrderId} /> was not sent
        </span>
      );
  }
}

/** The sentence under "Not yet confirmed": what is being checked, and with what reference. */
function UnconfirmedText({ outcome }: { readonly outcome: Extract<TicketOutcome, { kind: 'unconfirmed' }> }) {
  const cid = outcome.clientOrderId;
  if (cid !== null) {
    return (
      <>
        Checking with the broker whether order <Reference id={cid} /> exists…
        <SeenAtBroker clientOrderId={cid} />
      </>
    );
  }
  const lost = outcome.why === 'lost_contact';
  if (!outcome.noRecord) {
    return lost ? (
      <>Lost contact with the Tradedesk service — checking…</>
    ) : (
      <>The Tradedesk service&apos;s answer could not be read — checking…</>
    );
  }
  return (
    <>
      {lost
        ? 'Lost contact with the Tradedesk service before it answered, and it has no record of this order.'
        : 'The Tradedesk service’s answer could not be read, and it has no record of this order.'}{' '}
      Check the Orders list before placing it again.
    </>
  );
}

/** The broker's own order book may already show the order (a poll or the stream): say so. */
function SeenAtBroker({ clientOrderId }: { readonly clientOrderId: string }) {
  const find = useCallback(
    (orders: Order[]) => orders.find((o) => o.clientOrderId === clientOrderId) ?? null,
    [clientOrderId],
  );
  const seen = useQuery({ ...orderQueries.list(), select: find }).data;
  return seen ? <span className="outcome-seen"> {seenAtBrokerText(seen)}</span> : null;
}

function Reference({ id }: { readonly id: string }) {
  return (
    <code className="reference" data-testid="ticket-reference">
      {id}
    </code>
  );
}

/**
 * What follows the status: why the order was rejected or cancelled (the exchange's cancellation
 * of a stop outside its price protection range among them), or why a protected order rests at
 * a price the trader did not type (docs/kite.md §Market protection).
 */
function outcomeMessage(o: Order): string {
  if ((o.status === 'REJECTED' || o.status === 'CANCELLED') && o.statusMessage) return ` · ${o.statusMessage}`;
  return o.marketProtection && isWorking(o.status) ? ` · ${orderMessage(o)}` : '';
}

/** The order id and its live status from the blotter's data (the ack's own status until the list has it). */
function Placed({ orderId, status }: { readonly orderId: string; readonly status: OrderStatus | null }) {
  const findOrder = useCallback((orders: Order[]) => orders.find((o) => o.orderId === orderId) ?? null, [orderId]);
  const live = useQuery({ ...orderQueries.list(), select: findOrder });
  const shown = live.data?.status ?? status;
  return (
    <span data-testid="ticket-ack">
      Order <strong data-testid="ticket-order-id">{orderId}</strong>
      {shown ? (
        <>
          {' · '}
          <span className={`badge ${statusClass(shown)}`} data-testid="ticket-order-status">
            {shown}
          </span>
        </>
      ) : null}
      {live.data ? outcomeMessage(live.data) : ''}
    </span>
  );
}
