import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo, SessionVersion } from '@shared/domain/session';
import { createDispatcher } from '../dispatcher';
import { createAppServices, type AppServices } from '../app-services';

/**
 * Main numbers every session fact it sends (docs/session.md §Session facts are ordered
 * by main), so the renderer can tell a stale reply from a newer push whatever order they arrive in.
 */

let services: AppServices[] = [];
let dirs: string[] = [];

afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  services = [];
  dirs = [];
});

async function start() {
  const dir = await mkdtemp(join(tmpdir(), 'td-session-order-'));
  dirs.push(dir);
  const app = await createAppServices({ dataDir: dir, paper: { control: true, tickIntervalMs: 0 } });
  services.push(app);
  const dispatch = createDispatcher(app.handlers);
  const setFaults = async (faults: Record<string, number>) => {
    const res = await fetch(`${app.paperUrl}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Paper-Control': app.paperControlSecret ?? '' },
      body: JSON.stringify(faults),
    });
    expect(res.status).toBe(200);
  };
  const data = async <T>(p: Promise<{ ok: boolean; data?: unknown }>): Promise<T> => {
    const r = await p;
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.data as T;
  };
  return { app, dispatch, setFaults, data };
}

/** `a` was made after `b` by the same run of main. */
function after(a: SessionVersion, b: SessionVersion): boolean {
  return a.run === b.run && a.seq > b.seq;
}

describe('session facts carry the order main made them in', () => {
  it("a new session refused at once: its expiry is numbered after the login's reply, and the status says so", async () => {
    const { app, dispatch, setFaults, data } = await start();
    const pushed: Array<{ kind: string; version: SessionVersion }> = [];
    app.events.on('session.changed', (i) => pushed.push({ kind: i.state, version: i.version }));
    app.events.on('session.expired', (e) => pushed.push({ kind: 'expired-event', version: e.version }));

    await setFaults({ token_expiry: 1 });
    const reply = await data<SessionInfo>(dispatch('session.login', { profile: { kind: 'paper' } }));
    expect(reply.state).toBe('connected');
    // The start-up session may meet the fault too; everything it reported comes before the
    // login closed it (its `disconnected`). The new session's expiry is the one after that.
    const newSessionExpiry = () => {
      const closed = pushed.findIndex((p) => p.kind === 'disconnected');
      return closed < 0 ? undefined : pushed.slice(closed).find((p) => p.kind === 'expired-event');
    };
    // The background work after login meets the refused token: main ends the session.
    await vi.waitFor(() => expect(newSessionExpiry()).toBeDefined(), { timeout: 10_000 });
    await setFaults({});

    const expiry = newSessionExpiry()!.version;
    expect(after(expiry, reply.version)).toBe(true);
    // The expiry's event and main's status afterwards describe the same fact.
    const status = await data<SessionInfo>(dispatch('session.status', undefined));
    expect(status).toMatchObject({ state: 'expired', version: expiry });
    // Every push is numbered after the one before it; the expiry's `session.changed` repeats
    // the expiry's own number.
    pushed.forEach((p, i) => {
      const before = pushed[i - 1];
      if (!before) return;
      if (p.kind === 'expired' && before.kind === 'expired-event') expect(p.version).toEqual(before.version);
      else expect(after(p.version, before.version), `${p.kind} after ${before.kind}`).toBe(true);
    });

    // Logging in again is a newer fact than the expiry; so is logging out after it.
    const again = await data<SessionInfo>(dispatch('session.login', { profile: { kind: 'paper' } }));
    expect(again.state).toBe('connected');
    expect(after(again.version, expiry)).toBe(true);
    const out = await data<SessionInfo>(dispatch('session.logout', undefined));
    expect(out.state).toBe('disconnected');
    expect(after(out.version, again.version)).toBe(true);
    expect(after((await data<SessionInfo>(dispatch('session.status', undefined))).version, again.version)).toBe(true);
  });

  it('a read made as soon as a new session is announced is served by that session', async () => {
    const { app, dispatch, data } = await start();
    await data<SessionInfo>(dispatch('session.login', { profile: { kind: 'paper' } }));
    // The page refetches everything when it is told of a newer connected session; main must
    // already serve that session then, not answer "not logged in" while it finishes the login.
    const early: Array<Promise<unknown>> = [];
    app.events.on('session.changed', (i) => {
      if (i.state === 'connected') early.push(dispatch('instruments.list', undefined));
    });
    await data<SessionInfo>(dispatch('session.login', { profile: { kind: 'paper' } }));
    expect(early.length).toBeGreaterThan(0);
    for (const read of (await Promise.all(early)) as Array<{ ok: boolean; data?: unknown[] }>) {
      expect(read, JSON.stringify(read).slice(0, 200)).toMatchObject({ ok: true });
      expect(read.data!.length).toBeGreaterThan(0);
    }
  });

  it('a second run of the service numbers its facts under another run id', async () => {
    const one = await start();
    const two = await start();
    const a = await one.data<SessionInfo>(one.dispatch('session.status', undefined));
    const b = await two.data<SessionInfo>(two.dispatch('session.status', undefined));
    expect(a.version.run).not.toBe(b.version.run);
  });
});
