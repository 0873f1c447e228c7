import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc/bridge';
import { EVENT_NAMES_PLAIN } from '@shared/ipc/channel-names';

/**
 * Exposes exactly one frozen object, `window.desk = { invoke, on }`, and nothing of Electron.
 *
 * The preload runs sandboxed, so it is one dependency-free CommonJS bundle. It does not judge
 * payloads — main parses every one against the contract — but it strips the IPC event object
 * (which would leak `sender`) and only subscribes to contract events.
 *
 * @see https://www.electronjs.org/docs/latest/tutorial/context-isolation
 */
const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES_PLAIN);

const desk = Object.freeze({
  invoke(channel: unknown, payload?: unknown): Promise<unknown> {
    return ipcRenderer.invoke(IPC_INVOKE, channel, payload);
  },
  on(event: unknown, listener: unknown): () => void {
    if (typeof event !== 'string' || !EVENTS.has(event) || typeof listener !== 'function') {
      throw new TypeError(`desk.on: unknown event ${String(event)}`);
    }
    const wrapped = (_e: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (name === event) (listener as (p: unknown) => void)(payload);
    };
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, wrapped);
    };
  },
});

contextBridge.exposeInMainWorld('desk', desk);
