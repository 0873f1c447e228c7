import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc/bridge';
import type { IpcResult } from '@shared/ipc/result';
import { EventHub } from '../../app/event-hub';
import { APP_ORIGIN } from '../../app/security/app-origin';
import type { Dispatch } from '../../app/dispatcher';

/**
 * The IPC sender check (electron-ipc.ts; docs/architecture.md §Security, item 17): only the top frame of
 * the app's own page may call main. The Electron binary is missing on these machines, so
 * `ipcMain` is a stand-in that keeps the registered handler, and each call gets a fake event
 * whose `senderFrame` is what Electron would report.
 */

type Handler = (event: unknown, channel: unknown, payload: unknown) => Promise<IpcResult<unknown>>;
const ipc = vi.hoisted(() => ({ handlers: new Map<string, Handler>() }));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => ipc.handlers.set(channel, handler),
    removeHandler: (channel: string) => ipc.handlers.delete(channel),
  },
}));

const { bindElectronIpc } = await import('./electron-ipc');

/** What Electron's `event.senderFrame` holds: the frame's URL and its parent (null for the top frame). */
interface FakeFrame {
  readonly url: string;
  readonly parent: FakeFrame | null;
}
const topFrame = (url: string): FakeFrame => ({ url, parent: null });
const subFrame = (url: string): FakeFrame => ({ url, parent: topFrame(`${APP_ORIGIN}/index.html`) });

const DEV_ORIGIN = 'http://127.0.0.1:5173';
let reached: Array<[unknown, unknown, unknown]>;
let unbind: () => void;
let hub: EventHub;
let sent: unknown[][];

/** Calls the invoke handler main registered, as Electron would for a frame. */
const invokeFrom = (senderFrame: FakeFrame | null, channel = 'funds.get', payload?: unknown, senderId = 7) => {
  const handler = ipc.handlers.get(IPC_INVOKE);
  if (!handler) throw new Error('no invoke handler registered');
  return handler({ senderFrame, sender: { id: senderId } }, channel, payload);
};

/** A desk window as the shell holds it: its webContents' id and where its events go. */
const deskWindow = (id: number) => ({
  isDestroyed: () => false,
  webContents: { id, send: (...args: unknown[]) => sent.push([id, ...args]) },
});
let windows: Array<ReturnType<typeof deskWindow>>;

beforeEach(() => {
  ipc.handlers.clear();
  reached = [];
  sent = [];
  hub = new EventHub();
  const dispatch: Dispatch = async (channel, payload, caller) => {
    reached.push([channel, payload, caller]);
    return { ok: true, data: 'handled' };
  };
  // The main window (webContents 7) alone, until a test opens a pop-out.
  windows = [deskWindow(7)];
  unbind = bindElectronIpc(
    dispatch,
    hub,
    new Set([APP_ORIGIN, DEV_ORIGIN]),
    () => windows as unknown as Electron.BrowserWindow[],
  );
});

const FORBIDDEN = { ok: false, error: { kind: 'forbidden', message: expect.any(String) } };

describe('IPC sender check', () => {
  it("passes a call from the app page's top frame to the dispatcher, and returns its result", async () => {
    expect(await invokeFrom(topFrame(`${APP_ORIGIN}/index.html`), 'funds.get', { x: 1 })).toEqual({
      ok: true,
      data: 'handled',
    });
    expect(await invokeFrom(topFrame(`${DEV_ORIGIN}/`), 'orders.list')).toEqual({ ok: true, data: 'handled' });
    // The caller is the window's webContents, so the rate limiter can take turns between windows.
    expect(reached).toEqual([
      ['funds.get', { x: 1 }, 'webContents-7'],
      ['orders.list', undefined, 'webContents-7'],
    ]);
  });

  it('refuses a call from a sub-frame, even one showing the app origin, before any handler', async () => {
    expect(await invokeFrom(subFrame(`${APP_ORIGIN}/index.html`), 'orders.place', { order: {} })).toEqual(FORBIDDEN);
    expect(await invokeFrom(subFrame('https://evil.example/'), 'orders.place')).toEqual(FORBIDDEN);
    expect(reached).toEqual([]);
  });

  it('refuses a top frame from any other origin, before any handler', async () => {
    for (const url of [
      'https://evil.example/index.html',
      'app://tradedesk.evil/index.html',
      'app://evil/index.html',
      'file:///tmp/tradedesk/index.html',
      'http://127.0.0.1:5174/',
      'http://localhost:5173/',
      'about:blank',
      'data:text/html,<script>desk.invoke()</script>',
      '',
    ]) {
      expect(await invokeFrom(topFrame(url), 'session.logout'), url).toEqual(FORBIDDEN);
    }
    expect(reached).toEqual([]);
  });

  it('refuses a call whose frame is gone (senderFrame null after a navigation or crash)', async () => {
    expect(await invokeFrom(null, 'orders.cancel', { orderId: '1' })).toEqual(FORBIDDEN);
    expect(reached).toEqual([]);
  });

  it('accepts a pop-out of the desk, and refuses the app page in a window that is not the desk’s', async () => {
    windows.push(deskWindow(9));
    expect(await invokeFrom(topFrame(`${APP_ORIGIN}/index.html?window=w1`), 'funds.get', undefined, 9)).toEqual({
      ok: true,
      data: 'handled',
    });
    // webContents 11 shows the app's page but is no window of the desk (a stray or closed window).
    expect(await invokeFrom(topFrame(`${APP_ORIGIN}/index.html`), 'orders.place', undefined, 11)).toEqual(FORBIDDEN);
    // A pop-out closed: its contents can no longer call.
    windows.pop();
    expect(await invokeFrom(topFrame(`${APP_ORIGIN}/index.html?window=w1`), 'funds.get', undefined, 9)).toEqual(
      FORBIDDEN,
    );
    expect(reached).toEqual([['funds.get', undefined, 'webContents-9']]);
  });

  it('forwards every hub event to every desk window on the event channel, and unbinding stops both directions', async () => {
    const version = { run: 'r', seq: 3 };
    windows.push(deskWindow(9));
    hub.emit('session.expired', { reason: 'token expired', version });
    expect(sent).toEqual([
      [7, IPC_EVENT, 'session.expired', { reason: 'token expired', version }],
      [9, IPC_EVENT, 'session.expired', { reason: 'token expired', version }],
    ]);
    windows.pop();
    unbind();
    hub.emit('session.expired', { reason: 'again', version: { run: 'r', seq: 4 } });
    expect(sent).toHaveLength(2);
    expect(ipc.handlers.has(IPC_INVOKE)).toBe(false);
  });
});
