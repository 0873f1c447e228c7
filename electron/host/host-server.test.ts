import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { EventHub } from '../app/event-hub';
import { createDispatcher, type Handlers } from '../main/ipc/dispatcher';
import { startHost, type RunningHost } from './host-server';

const dir = mkdtempSync(join(tmpdir(), 'host-test-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
const hub = new EventHub();
const handlers = new Proxy({} as Handlers, {
  get: () => async (input: unknown) => ({ echoed: input ?? null }),
});
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ port: 0, rendererDir: dir, dispatch: createDispatcher(handlers), events: hub });
});
afterAll(() => host.close());

const origin = () => `http://127.0.0.1:${host.port}`;

function open(query: string, headers: Record<string, string> = { Origin: origin() }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function next(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
}

describe('browser host', () => {
  it('serves the renderer with the CSP and no-store on the page', async () => {
    const res = await fetch(`${origin()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404 for traversal and missing files, 405 for writes', async () => {
    expect((await fetch(`${origin()}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${origin()}/missing.js`)).status).toBe(404);
    expect((await fetch(`${origin()}/`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('refuses the bridge without the key, with a wrong key, or from another origin', async () => {
    await expect(open('')).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${'f'.repeat(64)}`)).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${host.secret}`, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${host.secret}`, {})).rejects.toThrow('HTTP 401');
  });

  it('carries calls to the dispatcher and events to the page', async () => {
    const ws = await open(`?key=${host.secret}`);
    ws.send(JSON.stringify({ id: 7, channel: 'instruments.list', payload: { exchange: 'NSE' } }));
    expect(await next(ws)).toEqual({ id: 7, result: { ok: true, data: { echoed: { exchange: 'NSE' } } } });

    ws.send('not json');
    expect(await next(ws)).toMatchObject({
      id: null,
      result: { ok: false, error: { kind: 'bad_request', field: 'id' } },
    });

    const event = next(ws);
    const version = { run: 'r', seq: 3 };
    hub.emit('session.expired', { reason: 'test', version });
    expect(await event).toEqual({ event: 'session.expired', payload: { reason: 'test', version } });
    ws.close();
  });
});
