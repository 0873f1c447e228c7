import type { IpcResult } from './result';
import type { EventName, EventPayload, RequestChannel, RequestInput, RequestOutput } from './contract';

/**
 * The one object the renderer gets: `window.desk`.
 *
 * In Electron the preload exposes it (frozen) through contextBridge; in a plain browser the
 * renderer builds the same object over the browser host's WebSocket. Either way it carries
 * only contract channels, and every reply is a value, never a throw.
 */
export interface DeskBridge {
  invoke<C extends RequestChannel>(channel: C, payload?: RequestInput<C>): Promise<IpcResult<RequestOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** IPC channel names Electron carries the bridge on (one invoke channel, one event channel). */
export const IPC_INVOKE = 'desk:invoke';
export const IPC_EVENT = 'desk:event';
