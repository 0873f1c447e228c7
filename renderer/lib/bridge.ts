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
  wsUrl.searchParams.set('key', takeLaunchKey());
  // A pop-out's page says which window of the desk it draws (docs/workstation.md §Windows).
  const deskWindow = search.get('window');
  if (deskWindow) wsUrl.searchParams.set('window', deskWindow);
  return (bridge = createWsBridge(wsUrl.toString()));
}

/** Where this tab keeps the browser host's launch key once it is out of the address bar. */
const LAUNCH_KEY_ITEM = 'tradedesk.launch-key';

/**
 * The browser host's per-launch key (docs/architecture.md §The bridge): read from the page URL
 * it was opened with, then taken out of the address bar and the history entry, so it is not in
 * the browser's history, a bookmark or a pop-out's URL. It stays in this tab's session storage:
 * a reload finds it there, and a pop-out this page opens starts with a copy of it.
 */
function takeLaunchKey(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('key');
  if (fromUrl === null) return sessionStorage.getItem(LAUNCH_KEY_ITEM) ?? '';
  sessionStorage.setItem(LAUNCH_KEY_ITEM, fromUrl);
  url.searchParams.delete('key');
  window.history.replaceState(window.history.state, '', url);
  return fromUrl;
}

/** Test seam: install a bridge (unit tests use an in-memory one). */
export function setBridgeForTests(b: DeskBridge | null): void {
  bridge = b;
}
