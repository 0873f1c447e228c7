import type { OrderStatus } from '@shared/domain/order';

const STATUS_CLASS: Record<OrderStatus, string> = {
  OPEN: 'st-open',
  'TRIGGER PENDING': 'st-pending',
  'AMO REQ RECEIVED': 'st-pending',
  COMPLETE: 'st-complete',
  CANCELLED: 'st-cancelled',
  REJECTED: 'st-rejected',
};

/** The badge colour class of a status, the same in the blotter and the ticket's acknowledgement. */
export function statusClass(status: OrderStatus): string {
  return STATUS_CLASS[status];
}
