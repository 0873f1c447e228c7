import { isWorking, type Order, type OrderAck } from '@shared/domain/order';
import { AppError } from '@shared/ipc/app-error';

/**
 * A cancel the broker refused because the order no longer works — cancelled already (a repeated
 * cancel, or one whose first reply was lost), filled, or rejected — answered with the order's
 * end instead of a failure (docs/contract.md §Reads retry; order actions do not repeat
 * themselves). Any other failure, or an order still working, is the caller's failure as it was.
 */
export async function settledCancel(
  err: unknown,
  orderId: string,
  read: (orderId: string) => Promise<Order>,
): Promise<OrderAck> {
  if (!(err instanceof AppError) || err.info.kind !== 'conflict') throw err;
  const now = await read(orderId).catch(() => null);
  if (now && !isWorking(now.status)) return { orderId, status: now.status };
  throw err;
}
