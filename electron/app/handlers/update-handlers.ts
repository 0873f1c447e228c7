import type { Handlers } from '../dispatcher';
import type { UpdateNotice } from '../support/update-notice';

/** `updates.*`: the header's update notice (docs/architecture.md §Release); `off` without a feed. */
export function updateHandlers(notice: UpdateNotice | null): Pick<Handlers, 'updates.status'> {
  return {
    'updates.status': async () => notice?.status() ?? { kind: 'off' },
  };
}
