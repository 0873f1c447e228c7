import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc/bridge';
import type { EventHub } from '../../app/event-hub';
import { isTrustedUrl } from '../../app/security/app-origin';
import type { Dispatch } from '../../app/dispatcher';

/** The caller a webContents' calls are made as (the fair queue's and the workstation's name for the page). */
export function webContentsCaller(id: number): string {
  return `webContents-${id}`;
}

/**
 * Binds the dispatcher to Electron IPC: one invoke channel in, one event channel out to every
 * window of the desk (docs/workstation.md §Windows).
 *
 * Every call is sender-checked first (checklist #17): only the top frame of the app's own page,
 * in one of the desk's windows, may call; anything else (another window's contents, a
 * sub-frame, another origin) gets a `forbidden` result and reaches no handler.
 *
 * @see https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages
 */
export function bindElectronIpc(
  dispatch: Dispatch,
  hub: EventHub,
  allowedOrigins: ReadonlySet<string>,
  windows: () => readonly BrowserWindow[],
): () => void {
  ipcMain.handle(IPC_INVOKE, async (event: IpcMainInvokeEvent, channel: unknown, payload: unknown) => {
    const frame = event.senderFrame;
    const topLevel = frame !== null && frame.parent === null;
    const deskWindow = windows().some((w) => !w.isDestroyed() && w.webContents.id === event.sender.id);
    if (!frame || !topLevel || !deskWindow || !isTrustedUrl(frame.url, allowedOrigins)) {
      return { ok: false, error: { kind: 'forbidden', message: 'Calls are accepted only from the Tradedesk window' } };
    }
    return dispatch(channel, payload, webContentsCaller(event.sender.id));
  });
  const off = hub.onAny((name, payload) => {
    for (const win of windows()) if (!win.isDestroyed()) win.webContents.send(IPC_EVENT, name, payload);
  });
  return () => {
    off();
    ipcMain.removeHandler(IPC_INVOKE);
  };
}
