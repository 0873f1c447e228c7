import type { CancelOptions, ReadOptions } from './broker';
import type { Priority } from './http/token-bucket';

/** The client bucket's lane for a read: an order action's own read goes ahead of polls. */
export function urgency(options: ReadOptions): Priority {
  return options.urgent === true ? 'urgent' : 'normal';
}

/** A cancel's options as the transport takes them (absent ones left out). */
export function cancelSpec(options: CancelOptions): { rateLimits?: 'wait' | 'answer'; sendBy?: AbortSignal } {
  return {
    ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
    ...(options.sendBy !== undefined ? { sendBy: options.sendBy } : {}),
  };
}
