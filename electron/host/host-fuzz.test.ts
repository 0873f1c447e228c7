import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { EventHub } from '../app/event-hub';
import { createDispatcher, type Handlers } from '../app/dispatcher';
import { rawHttp, upgradeRequest } from '../paper/raw-http';
import { startHost, type RunningHost } from './host-server';

/**
 * The browser host under random request targets, headers, upgrade requests and bridge frames
 * (docs/architecture.md §The bridge). Whatever arrives: an answer, never a 5xx, no bridge
 * without the key and the page's Origin, a reply to every frame that names an id, and no
 * exception escapes (Vitest fails the file on one).
 */

const dir = mkdtempSync(join(tmpdir(), 'host-fuzz-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
const handlers = new Proxy({} as Handlers, { get: () => async () => ({ ok: 1 }) });
let host: RunningHost;
beforeAll(async () => {
  host = await startHost({
    port: 0,
    rendererDir: dir,
    dispatch: createDispatcher(handlers, () => undefined),
    events: new EventHub(),
  });
});
afterAll(() => host.close());

// FUZZ_RUNS turns this into a longer campaign on demand; CI keeps the default.
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const origin = (): string => `http://127.0.0.1:${host.port}`;
const targetChar = fc.constantFrom(..."/[]%:@?#.\\~!$&'()*+,;=-_abcAZ09%zz%2e%2F%00é😀".split(''));
const target = fc.oneof(
  fc.constantFrom('//[', 'http://[::1/', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/bridge', '*'),
  fc.string({ unit: targetChar, maxLength: 120 }).map((s) => `/${s}`),
  fc.string({ unit: targetChar, maxLength: 60 }),
);
const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/);
const headerValue = fc.string({ unit: fc.constantFrom(...'abc :/"\'0123'.split('')), maxLength: 60 });
const headers = fc
  .dictionary(headerName, headerValue, { maxKeys: 5 })
  .map((h) =>
    Object.fromEntries(
      Object.entries(h).filter(
        ([k]) => !/^(host|connection|content-length|transfer-encoding|expect|upgrade)$/i.test(k),
      ),
    ),
  );

describe('browser host fuzz', () => {
  it('random GET/HEAD targets and headers: always an answer below 500, and the host keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'HEAD', 'POST'), target, headers, async (m, t, h) => {
        const lines = [`${m} ${t} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
        for (const [k, v] of Object.entries(h)) lines.push(`${k}: ${v}`);
        const r = await rawHttp(host.port, `${lines.join('\r\n')}\r\n\r\n`);
        expect(r).not.toBeNull();
        expect(r?.status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
    expect((await fetch(`${origin()}/`)).status).toBe(200);
  });

  it('random upgrade requests: a bridge opens only with the key and the page Origin', async () => {
    const upgrade = fc.record({
      path: fc.oneof(target, fc.constant('/bridge')),
      key: fc.oneof(fc.constant('right'), fc.string({ maxLength: 70 })),
      origin: fc.oneof(fc.constant('page'), fc.constant('http://evil.example'), fc.string({ maxLength: 30 })),
    });
    await fc.assert(
      fc.asyncProperty(upgrade, async (u) => {
        const key = u.key === 'right' ? host.secret : encodeURIComponent(u.key);
        const path = u.path.startsWith('/bridge') ? `/bridge?key=${key}` : u.path;
        const from = u.origin === 'page' ? origin() : u.origin.replace(/[\r\n]/g, '');
        const r = await rawHttp(host.port, upgradeRequest(path, { Origin: from }));
        expect(r).not.toBeNull();
        const allowed = path === `/bridge?key=${host.secret}` && from === origin();
        if (allowed) expect(r?.status).toBe(101);
        else expect([400, 401]).toContain(r?.status);
      }),
      { numRuns: RUNS },
    );
  });

  it('random bridge frames: every frame with an id gets its reply, and the socket stays open', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?key=${host.secret}`, {
      headers: { Origin: origin() },
    });
    const replies = new Map<unknown, unknown>();
    let closed: number | null = null;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { id?: unknown; result?: unknown };
      if ('id' in m) replies.set(m.id, m.result);
    });
    ws.on('close', (code) => (closed = code));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let seq = 0;
    const frame = fc.record(
      {
        channel: fc.oneof(
          fc.constantFrom('funds.get', 'orders.cancel', 'candles.get', 'nope', '__proto__'),
          fc.anything(),
        ),
        payload: fc.anything(),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(frame, fc.oneof(fc.json(), fc.string({ maxLength: 100 })), async (f, junk) => {
        ws.send(junk);
        const id = `fuzz-${++seq}`;
        ws.send(JSON.stringify({ ...f, id }));
        await vi.waitFor(() => expect(replies.has(id)).toBe(true), { timeout: 5_000 });
        const result = replies.get(id) as { ok: boolean; error?: { kind: string } };
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: RUNS },
    );
    expect(closed).toBeNull();
    ws.close();
  });
});
