import WebSocket from 'ws';
import { STREAM_SUBSCRIPTION_LIMIT, WireStreamServerMessage } from '../../wire/rest-schemas';
import type { AuthSource } from '../auth-source';
import type { StreamListener } from '../broker';
import { toOrder, toTick } from '../rest/wire-to-domain';
import { StreamSocket, type StreamDialect, type StreamSocketOptions } from './stream-socket';

export { SUBSCRIBE_CHUNK } from './stream-socket';

/** Knobs of the stream client: the one policy's (`stream-socket.ts`). */
export type StreamClientOptions = StreamSocketOptions;

/**
 * How long an open socket may stay silent before it is replaced: the broker sends a heartbeat
 * every 3 s, so three may go missing.
 */
const SILENCE_MS = 10_000;

/**
 * The broker's WebSocket stream (docs/api.md §Stream): order updates, ticks, heartbeats, under
 * the one client-side policy (`StreamSocket`: reconnect, watchdog and ping, subscription limit
 * and chunks).
 *
 * It authenticates the upgrade with the session's bearer token; a 401 asks for one re-login
 * before the next attempt. Every message is parsed with the wire schema (a malformed one is
 * dropped, never delivered); a `subscription_limit` error is the broker refusing a subscription.
 * Ticks are passed on one by one; batching them for the renderer is the app's job
 * (`tick-batcher.ts`), so a bench can read them raw.
 */
export class StreamClient extends StreamSocket {
  public constructor(url: string, auth: AuthSource, listener: StreamListener, options: StreamClientOptions = {}) {
    super(auth, listener, restStreamDialect(url, listener), STREAM_SUBSCRIPTION_LIMIT, SILENCE_MS, options);
  }
}

function restStreamDialect(url: string, listener: StreamListener): StreamDialect {
  return {
    name: 'The broker',
    open: (token) => new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: 10_000 }),
    subscription: (action, tokens) => JSON.stringify({ action, tokens }),
    mode: (mode, tokens) => JSON.stringify({ action: 'mode', mode, tokens }),
    upgradeRefused: (status) => (status === 401 ? 'renew' : 'retry'),
    receive: (data, _isBinary, control) => {
      let json: unknown;
      try {
        json = JSON.parse(String(data));
      } catch {
        return;
      }
      const parsed = WireStreamServerMessage.safeParse(json);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'order') listener.onOrder(toOrder(msg.order));
      else if (msg.type === 'tick') listener.onTick(toTick(msg));
      else if (msg.type === 'error' && msg.code === 'subscription_limit') control.refused(msg.message);
    },
  };
}
