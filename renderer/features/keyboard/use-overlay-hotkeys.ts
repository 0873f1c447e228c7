import { useEffect } from 'react';
import { isTyping, shortcutFor } from '../../lib/shortcuts';
import { useOverlayActions } from './overlay-store';

/**
 * Ctrl+K (⌘K) opens the command palette from anywhere, even from a field; `?` opens the
 * shortcuts sheet unless the trader is typing (then it is a question mark). Both come from the
 * registry (`lib/shortcuts.ts`), as the sheet lists them.
 */
export function useOverlayHotkeys(): void {
  const { overlayOpened } = useOverlayActions();
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const id = shortcutFor('anywhere', e);
      if (id === 'palette') {
        e.preventDefault();
        overlayOpened('palette');
      } else if (id === 'shortcuts' && !isTyping(e.target)) {
        e.preventDefault();
        overlayOpened('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [overlayOpened]);
}
