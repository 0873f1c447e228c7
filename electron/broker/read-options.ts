import type { CancelOptions, ReadOptions } from './broker';
import type { RetryClass } from './http/retry-policy';
import type { Priority } from './http/token-bucket';

/** The client bucket's lane for a read: an order action's own read goes ahead of polls. */
export function urgency(options: ReadOptions): Priority {
  return options.urgent === true ? 'urgent' : 'normal';
}

/**
 * A cancel as the transport takes it: repeated like an idempotent write (a second cancel of the
 * same order changes nothing), in the lane ahead of every other, with the caller's options
 * (absent ones left out).
 */
export function cancelSpec(options: CancelOptions): {
  retry: RetryClass;
  priority: Priority;
  rateLimits?: 'wait' | 'answer';
  sendBy?: AbortSignal;
} {
  return {
    retry: 'idempotent-write',
    priority: 'cancel',
    ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
    ...(options.sendBy !== undefined ? { sendBy: options.sendBy } : {}),
  };
}
