import { EVENT_NAMES_PLAIN } from '../../shared/ipc/channel-names';
import type { DeskBridge } from '../../shared/ipc/bridge';
import type { IpcResult } from '../../shared/ipc/result';

type Pending = (result: IpcResult<unknown>) => void;
type AnyListener = (payload: unknown) => void;

const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES_PLAIN);

/**
 * The bridge over the browser host's WebSocket, with the same shape as Electron's `window.desk`.
 *
 * Used only when the renderer runs outside Electron. It reconnects with capped backoff; calls
 * in flight when the socket drops resolve as `network` errors (never hang, never throw), and
 * calls made while it is down wait for the next connection.
 */
export function createWsBridge(url: string): DeskBridge {
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<AnyListener>>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let attempt = 0;

  const connect = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      for (const m of queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (ev: MessageEvent<string>) => {
      let msg: { id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (typeof msg.id === 'number') {
        const done = pending.get(msg.id);
        pending.delete(msg.id);
        done?.(msg.result as IpcResult<unknown>);
      } else if (typeof msg.event === 'string') {
        for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
      }
    };
    ws.onclose = () => {
      socket = null;
      for (const [id, done] of pending) {
        pending.delete(id);
        done({ ok: false, error: { kind: 'network', message: 'Lost the connection to the Tradedesk host' } });
      }
      const delay = Math.min(5000, 250 * 2 ** attempt++) * (0.5 + Math.random() / 2);
      setTimeout(connect, delay);
    };
  };
  connect();

  return Object.freeze({
    invoke(channel, payload) {
      const id = nextId++;
      const message = JSON.stringify({ id, channel, payload });
      return new Promise((resolve) => {
        pending.set(id, resolve as Pending);
        if (socket?.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push(message);
      });
    },
    on(event, listener) {
      if (!EVENTS.has(event)) throw new TypeError(`desk.on: unknown event ${String(event)}`);
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as AnyListener);
      return () => set.delete(listener as AnyListener);
    },
  } satisfies DeskBridge);
}
