import type { WindowId } from '@shared/domain/workstation';
import { windowUrl } from './this-window';

/**
 * The pop-out windows this page opened (the browser host, docs/workstation.md §Windows): the page
 * whose trader asked opens the window itself, so the browser sees the click it needs to allow a
 * pop-up. Kept so the window cycle can raise them and so a window is never opened twice.
 */
const opened = new Map<WindowId, Window>();

/** Opens window `id`'s page (this page's address with `window=id`); false when the browser refused. */
export function openPopout(id: WindowId): boolean {
  const known = opened.get(id);
  if (known && !known.closed) {
    known.focus();
    return true;
  }
  const w = window.open(windowUrl(window.location.href, id), `tradedesk-${id}`, 'popup,width=900,height=640');
  if (!w) return false;
  opened.set(id, w);
  return true;
}

/** Raises window `id` if this page opened it (browsers may ignore it: best effort). */
export function raisePopout(id: WindowId): void {
  opened.get(id)?.focus();
}

/** True if this page opened window `id` and it is still there. */
export function isOpenHere(id: WindowId): boolean {
  const w = opened.get(id);
  return w !== undefined && !w.closed;
}
