import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a broker call is made for, carried through every `await` without touching a handler's
 * signature (docs/brokers.md §Fair queuing).
 *
 * The bridge transports name the caller — one browser-host WebSocket, or one Electron
 * webContents — and the dispatcher names the class of the channel; the client token bucket
 * reads both when a call has to wait, so one page's chart history cannot starve another
 * page's account data.
 */

/** `account` (funds, positions, orders, holdings…) is served before `bulk` (candles, instrument lists). */
export type CallClass = 'account' | 'bulk';

/** The call being made: for whom, and how urgent its kind of data is. */
export interface CallerInfo {
  readonly caller: string;
  readonly cls: CallClass;
}

/** Calls made outside any bridge call: reconciliation, the stream's login, background work. */
export const MAIN_CALLER: CallerInfo = { caller: 'main', cls: 'account' };

const storage = new AsyncLocalStorage<CallerInfo>();

/** Runs `fn` (and everything it awaits) as `info`. */
export function runAsCaller<T>(info: CallerInfo, fn: () => T): T {
  return storage.run(info, fn);
}

/** The caller of the call in progress, or `MAIN_CALLER`. */
export function currentCaller(): CallerInfo {
  return storage.getStore() ?? MAIN_CALLER;
}
