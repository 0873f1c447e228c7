import type { DeskBridge } from '@shared/ipc/bridge';
import { createWsBridge } from './ws-bridge';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a plain browser. */
    readonly desk?: DeskBridge;
  }
}

let bridge: DeskBridge | null = null;

/**
 * The bridge to main: Electron's preload object when there is one, otherwise the browser
 * host's WebSocket (`/bridge`, with the per-launch key and the desk window from the page URL). The choice is made
 * here, once; nothing else in the renderer knows which transport carries it.
 */
export function getBridge(): DeskBridge {
  if (bridge) return bridge;
  // `window.desk` is also what any element with id="desk" is named as (HTML named access), so
  // insist on the preload's shape before trusting it.
  if (typeof window.desk?.invoke === 'function') return (bridge = window.desk);
  const search = new URLSearchParams(window.location.search);
  const wsUrl = new URL('/bridge', window.location.href);
  wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  wsUrl.searchParams.set('key', search.get('key') ?? '');
  // A pop-out's page says which window of the desk it draws (docs/workstation.md §Windows).
  const deskWindow = search.get('window');
  if (deskWindow) wsUrl.searchParams.set('window', deskWindow);
  return (bridge = createWsBridge(wsUrl.toString()));
}

/** Test seam: install a bridge (unit tests use an in-memory one). */
export function setBridgeForTests(b: DeskBridge | null): void {
  bridge = b;
}
