import type { ReadOptions } from './broker';
import type { Priority } from './http/token-bucket';

/** The client bucket's lane for a read: an order action's own read goes ahead of polls. */
export function urgency(options: ReadOptions): Priority {
  return options.urgent === true ? 'urgent' : 'normal';
}
