import { EVENT_NAMES_PLAIN } from '@shared/ipc/channel-names';
import type { DeskBridge } from '@shared/ipc/bridge';
import { kilobytes, MAX_BRIDGE_MESSAGE_BYTES, utf8Bytes } from '@shared/ipc/limits';
import type { IpcResult } from '@shared/ipc/result';
import { BRIDGE_REPLACED } from '@shared/domain/bridge-close';

type AnyListener = (payload: unknown) => void;

/** One call the page made: its message, whether it left, and who waits for its answer. */
interface Call {
  readonly message: string;
  readonly answer: (result: IpcResult<unknown>) => void;
  /** True once the message was handed to an open socket; it is never handed over again. */
  sent: boolean;
  /** While unsent: the bound on how long it waits for a connection. */
  wait: ReturnType<typeof setTimeout> | null;
}

/** What a test may replace; the app uses the defaults. */
export interface WsBridgeOptions {
  /** How long a call made while the socket is down waits for a connection before it is answered "not sent". */
  readonly connectWaitMs?: number;
  /** The WebSocket constructor (tests pass a fake one). */
  readonly WebSocket?: new (url: string) => WebSocket;
}

/** The default bound on a call's wait for a connection: long enough for a reconnect, short enough to answer a click. */
export const CONNECT_WAIT_MS = 5_000;

const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES_PLAIN);
const OPEN = 1; // WebSocket.OPEN, without depending on a global a test may not have

/**
 * The bridge over the browser host's WebSocket, with the same shape as Electron's `window.desk`.
 *
 * Used only when the renderer runs outside Electron. It reconnects with capped backoff, and every
 * call gets exactly one answer, true to what happened to its message (docs/architecture.md,
 * "The bridge: a call is answered once"):
 *
 * - sent, then the socket closed before the reply → `disconnected` (it may or may not have reached
 *   main), and it is **never sent again**: re-sending a call whose caller was already answered is
 *   how a ticket said "failed" and the order was then placed;
 * - made while the socket is down → it waits for the next connection, at most `connectWaitMs`;
 *   past that it leaves the queue and is answered `network` "Not sent" (true: it never left);
 * - larger than the host accepts (`MAX_BRIDGE_MESSAGE_BYTES`) → never sent, answered
 *   `bad_request` at once: the host would close the socket on it, and every other call waiting on
 *   that socket (an order in flight) would read "not yet confirmed".
 */
export function createWsBridge(url: string, options: WsBridgeOptions = {}): DeskBridge {
  const connectWaitMs = options.connectWaitMs ?? CONNECT_WAIT_MS;
  const Socket = options.WebSocket ?? WebSocket;
  const calls = new Map<number, Call>(); // insertion order is call order: queued calls leave in order
  const listeners = new Map<string, Set<AnyListener>>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let attempt = 0;

  const settle = (id: number, result: IpcResult<unknown>): void => {
    const call = calls.get(id);
    if (!call) return;
    calls.delete(id);
    if (call.wait) clearTimeout(call.wait);
    call.answer(result);
  };
  const send = (ws: WebSocket, call: Call): void => {
    call.sent = true;
    if (call.wait) clearTimeout(call.wait);
    call.wait = null;
    ws.send(call.message);
  };

  const connect = (): void => {
    const ws = new Socket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      for (const call of calls.values()) if (!call.sent) send(ws, call);
    };
    ws.onmessage = (ev: MessageEvent<string>) => {
      let msg: { id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (typeof msg.id === 'number') settle(msg.id, msg.result as IpcResult<unknown>);
      else if (typeof msg.event === 'string') for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
    };
    ws.onclose = (ev?: CloseEvent) => {
      socket = null;
      for (const [id, call] of calls) {
        if (!call.sent) continue; // still waiting for a connection, within its bound
        settle(id, {
          ok: false,
          error: {
            kind: 'disconnected',
            message: 'Lost contact with the Tradedesk service before it answered',
          },
        });
      }
      // A newer page of the same window took its place (a reload, a second tab): reconnecting
      // would take it back, and the two would trade it forever (docs/workstation.md).
      if (ev?.code === BRIDGE_REPLACED) return;
      const delay = Math.min(5000, 250 * 2 ** attempt++) * (0.5 + Math.random() / 2);
      setTimeout(connect, delay);
    };
  };
  connect();

  return Object.freeze({
    invoke(channel, payload) {
      const id = nextId++;
      return new Promise((resolve) => {
        const message = JSON.stringify({ id, channel, payload });
        const bytes = utf8Bytes(message);
        if (bytes > MAX_BRIDGE_MESSAGE_BYTES) {
          resolve({
            ok: false,
            error: {
              kind: 'bad_request',
              field: 'payload',
              message: `Not sent: ${kilobytes(bytes)} is more than the ${kilobytes(MAX_BRIDGE_MESSAGE_BYTES)} the desk takes in one request`,
            },
          });
          return;
        }
        const call: Call = { message, answer: resolve as Call['answer'], sent: false, wait: null };
        calls.set(id, call);
        if (socket?.readyState === OPEN) {
          send(socket, call);
          return;
        }
        call.wait = setTimeout(
          () =>
            settle(id, {
              ok: false,
              error: { kind: 'network', message: 'Not sent: no connection to the Tradedesk service' },
            }),
          connectWaitMs,
        );
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
