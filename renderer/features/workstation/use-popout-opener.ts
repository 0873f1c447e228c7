import { useEffect, useRef } from 'react';
import { call } from '../../lib/ipc-client';
import { useDeskView } from './desk-queries';
import { isOpenHere, openPopout } from './popout-windows';

/**
 * The browser host's main page (docs/workstation.md §Windows): when it starts and when a
 * workspace is loaded it opens the pop-outs the desk has that no page draws (a desk restored
 * after a restart); a pop-out the trader asks for is opened by the page that asked. A window the
 * browser will not open gives its panels back. While pop-outs are open, leaving the page asks
 * first. Electron's shell does all this itself (`opener: 'main'`).
 */
export function usePopoutOpener(): void {
  const view = useDeskView();
  const done = useRef<string | null>(null);
  const stamp = view ? `${view.loaded?.name ?? ''}:${view.loaded?.generation ?? 0}` : null;
  useEffect(() => {
    if (!view || view.opener !== 'page' || stamp === null || done.current === stamp) return;
    done.current = stamp;
    for (const w of view.desk.windows.slice(1)) {
      if (view.open.includes(w.id) || isOpenHere(w.id)) continue;
      if (!openPopout(w.id)) call('desk.close', { window: w.id }).catch(() => undefined);
    }
  }, [view, stamp]);

  const popouts = (view?.desk.windows.length ?? 1) > 1 && view?.opener === 'page';
  useEffect(() => {
    if (!popouts) return;
    const ask = (e: BeforeUnloadEvent): void => {
      e.preventDefault();
      // Older browsers need returnValue set to ask.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [popouts]);
}
