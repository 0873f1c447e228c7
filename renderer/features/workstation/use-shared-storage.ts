import { useEffect } from 'react';
import { rereadSettings } from '../../state/settings-store';
import { rereadTabs } from '../layout/tabs-store';

/**
 * The windows of one desk share the page's storage (one origin): a setting changed in one window
 * (the theme, a panel's size, a tab) is read by the others when it is written, so no window later
 * writes back a stale copy over it. Mounted once per page.
 */
export function useSharedStorage(): void {
  useEffect(() => {
    const onStorage = (e: StorageEvent): void => {
      if (e.key === 'tradedesk.settings') void rereadSettings();
      else if (e.key === 'tradedesk.tabs') void rereadTabs();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
}
