import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WireStreamServerMessage } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';

let api: Api;
beforeAll(async () => {
  api = await startTestBroker({ heartbeatMs: 40 });
});
afterAll(() => api.close());

const wsUrl = (): string => `${api.broker.url.replace('http', 'ws')}/stream`;

/** Opens an authenticated socket and collects parsed server messages. */
async function connect(): Promise<{
  ws: WebSocket;
  messages: WireStreamServerMessage[];
  next: (pred: (m: WireStreamServerMessage) => boolean) => Promise<WireStreamServerMessage>;
}> {
  const ws = new WebSocket(wsUrl(), { headers: { authorization: `Bearer ${api.token}` } });
  const messages: WireStreamServerMessage[] = [];
  const waiters: Array<{
    pred: (m: WireStreamServerMessage) => boolean;
    resolve: (m: WireStreamServerMessage) => void;
  }> = [];
  ws.on('message', (data) => {
    const m = WireStreamServerMessage.parse(JSON.parse(String(data)));
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = (pred: (m: WireStreamServerMessage) => boolean) =>
    new Promise<WireStreamServerMessage>((resolve) => {
      const seen = messages.find(pred);
      if (seen) resolve(seen);
      else waiters.push({ pred, resolve });
    });
  return { ws, messages, next };
}

describe('stream', () => {
  it('refuses an upgrade without a valid token with 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }]) {
      const ws = new WebSocket(wsUrl(), { headers });
      ws.on('error', () => {}); // the refused handshake also surfaces as an error event
      const status = await new Promise<number>((resolve) => {
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
      });
      expect(status).toBe(401);
      ws.terminate();
    }
  });

  it('sends ticks for subscribed tokens only, starting with the current price', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const itc = await api.instrument('NSE', 'ITC');
    const { ws, messages, next } = await connect();
    ws.send(JSON.stringify({ action: 'subscribe', tokens: [infy.instrument_token] }));
    const first = await next((m) => m.type === 'tick');
    expect(first).toMatchObject({ instrument_token: infy.instrument_token, last_price: infy.last_price });
    const target = Math.round((infy.last_price + 2) * 20) / 20;
    api.broker.setPrice(itc.instrument_token, itc.last_price + 1);
    api.broker.setPrice(infy.instrument_token, target);
    const moved = await next((m) => m.type === 'tick' && m.last_price === target);
    expect(moved.type === 'tick' && moved.ts).toMatch(/\+05:30$/);
    expect(messages.some((m) => m.type === 'tick' && m.instrument_token === itc.instrument_token)).toBe(false);
    ws.send(JSON.stringify({ action: 'unsubscribe', tokens: [infy.instrument_token] }));
    ws.send('not json'); // ignored, the socket stays open
    ws.close();
  });

  it('sends an order message on every status change and heartbeats', async () => {
    const infy = await api.instrument('NSE', 'INFY');
    const { ws, next } = await connect();
    await next((m) => m.type === 'heartbeat');
    const limit = Math.round((infy.last_price - 5) * 20) / 20;
    const r = await api.place({ order_type: 'LIMIT', price: limit, client_order_id: 'ws-1' });
    const open = await next(
      (m) => m.type === 'order' && m.order.order_id === r.body.order_id && m.order.status === 'OPEN',
    );
    expect(open.type === 'order' && open.order.client_order_id).toBe('ws-1');
    api.broker.setPrice(infy.instrument_token, limit);
    const done = await next(
      (m) => m.type === 'order' && m.order.order_id === r.body.order_id && m.order.status === 'COMPLETE',
    );
    expect(done.type === 'order' && done.order.filled_quantity).toBe(1);
    ws.close();
  });

  it('the control interface switches the stream off (sockets cut, upgrades refused with 503) and back on', async () => {
    const { ws } = await connect();
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    const off = await fetch(`${api.broker.url}/_control/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Paper-Control': api.broker.controlSecret ?? '' },
      body: JSON.stringify({ accept: false }),
    });
    expect(await off.json()).toEqual({ accept: false, cut: 1 });
    await closed;
    const refused = new WebSocket(wsUrl(), { headers: { authorization: `Bearer ${api.token}` } });
    refused.on('error', () => {});
    const status = await new Promise<number>((resolve) => {
      refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      refused.on('open', () => resolve(101));
    });
    expect(status).toBe(503);
    refused.terminate();
    expect(api.broker.setStreamAccepting(true)).toBe(0);
    const again = await connect();
    again.ws.close();
  });
});
