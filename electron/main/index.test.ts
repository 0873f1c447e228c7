import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BROKER_URL_HTTPS_REQUIRED } from '@shared/domain/broker-url';
import { APP_ENTRY_URL } from '../app/security/app-origin';
import { userDataDir } from '../app/user-data-dir';

/**
 * The Electron shell's lifecycle with a fake `electron` module (no binary runs here): the
 * composition root is imported fresh for each case and its decisions read off the fakes.
 */

/** A stand-in for Electron's `app`: `quit()` emits a cancellable 'before-quit' as Electron does. */
class FakeApp extends EventEmitter {
  isPackaged = false;
  lock = true;
  quitted = false;
  exitCode: number | null = null;
  readonly requestSingleInstanceLock = vi.fn(() => this.lock);
  readonly whenReady = vi.fn(() => Promise.resolve());
  readonly paths = new Map<string, string>([['home', '/home/trader']]);
  readonly getPath = vi.fn((name: string) => this.paths.get(name) ?? '/tmp/tradedesk-test-user-data');
  readonly setPath = vi.fn((name: string, path: string) => {
    this.paths.set(name, path);
  });
  readonly exit = vi.fn((code: number) => {
    this.exitCode = code;
  });
  readonly quit = vi.fn(() => {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.quitted = true;
  });
}

const fake = vi.hoisted(() => ({
  app: null as unknown as FakeApp,
  showErrorBox: null as unknown as (title: string, content: string) => void,
  createAppServices: null as unknown as (config: Record<string, unknown>) => Promise<unknown>,
  mirrorDesk: null as unknown as (workstation: unknown, events: unknown, preload: string, url: string) => unknown,
  lockDownContents: null as unknown as (origins: ReadonlySet<string>) => void,
}));

vi.mock('electron', () => ({
  get app() {
    return fake.app;
  },
  dialog: { showErrorBox: (title: string, content: string) => fake.showErrorBox(title, content) },
  safeStorage: {},
}));
vi.mock('../app/app-services', () => ({
  createAppServices: (c: Record<string, unknown>) => fake.createAppServices(c),
}));
vi.mock('./window/desk-windows', () => ({
  mirrorDesk: (w: unknown, e: unknown, p: string, u: string) => fake.mirrorDesk(w, e, p, u),
}));
// The log is app-log.test.ts's; here it writes nowhere.
vi.mock('../app/support/app-log', () => ({
  MainLog: class {
    open = () => Promise.resolve({ follow: () => () => {} });
    problem = () => {};
    close = () => Promise.resolve();
  },
}));
vi.mock('./support/support-shell', () => ({ keepCrashDumpsLocally: () => {}, installAppMenu: () => {} }));
vi.mock('./ipc/electron-ipc', () => ({ bindElectronIpc: () => {} }));
vi.mock('./security/apply-electron-security', () => ({
  registerAppScheme: () => {},
  serveRenderer: () => {},
  denyAllPermissions: () => {},
  lockDownContents: (origins: ReadonlySet<string>) => fake.lockDownContents(origins),
}));

let closeServices: () => void;
let closeCalls: number;

beforeEach(() => {
  vi.resetModules();
  fake.app = new FakeApp();
  fake.showErrorBox = vi.fn();
  fake.mirrorDesk = vi.fn(() => ({ windows: () => [], deskClosing: () => {} }));
  fake.lockDownContents = vi.fn();
  closeCalls = 0;
  fake.createAppServices = vi.fn(async () => ({
    handlers: {},
    events: {},
    paperUrl: null,
    workstation: {},
    close: () => {
      closeCalls += 1;
      return new Promise<void>((resolve) => (closeServices = resolve));
    },
  }));
  vi.stubEnv('VITE_DEV_SERVER_URL', '');
  vi.stubEnv('TRADEDESK_BROKER_URL', '');
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

/** Imports the shell as Electron would run it, and lets its start-up promises settle. */
async function launch(): Promise<void> {
  await import('./index');
  await vi.waitFor(() => {
    if (fake.app.exitCode === null && fake.app.lock && vi.mocked(fake.mirrorDesk).mock.calls.length === 0) {
      throw new Error('still starting');
    }
  });
}

describe('Electron shell', () => {
  it('keeps its data in the per-user folder npm run host uses, set before the single-instance lock (which lives in it)', async () => {
    vi.stubEnv('XDG_CONFIG_HOME', '/home/trader/.config');
    vi.stubEnv('APPDATA', '/home/trader/.config');
    await launch();
    const folder = userDataDir(process.platform, process.env, '/home/trader');
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', folder);
    expect(fake.app.setPath.mock.invocationCallOrder[0]).toBeLessThan(
      fake.app.requestSingleInstanceLock.mock.invocationCallOrder[0] ?? 0,
    );
    expect(fake.createAppServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: folder }));
  });

  it('starts nothing when another instance holds the single-instance lock: no services, no window, and it quits', async () => {
    fake.app.lock = false;
    await import('./index');
    await new Promise((r) => setImmediate(r));
    expect(fake.app.quit).toHaveBeenCalled();
    expect(fake.app.whenReady).not.toHaveBeenCalled();
    expect(fake.createAppServices).not.toHaveBeenCalled();
    expect(fake.mirrorDesk).not.toHaveBeenCalled();
  });

  it('holds the quit until the services have closed, then quits', async () => {
    await launch();
    fake.app.quit();
    await new Promise((r) => setImmediate(r));
    expect(closeCalls).toBe(1);
    expect(fake.app.quitted).toBe(false); // still closing: the ledger and the session are flushed first
    closeServices();
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true));
    expect(closeCalls).toBe(1); // the second 'before-quit' goes through without closing again
  });

  it('quits anyway when closing hangs, after its 5 s budget', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    await launch();
    fake.app.quit();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fake.app.quitted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.app.quitted).toBe(true);
  });

  it('ignores VITE_DEV_SERVER_URL in a packaged build: the window loads and trusts only app://', async () => {
    vi.stubEnv('VITE_DEV_SERVER_URL', 'http://127.0.0.1:5173/');
    fake.app.isPackaged = true;
    await launch();
    expect(vi.mocked(fake.mirrorDesk).mock.calls[0]![3]).toBe(APP_ENTRY_URL);
    expect([...vi.mocked(fake.lockDownContents).mock.calls[0]![0]]).toEqual(['app://tradedesk']);
  });

  it('loads the dev server in a development build', async () => {
    vi.stubEnv('VITE_DEV_SERVER_URL', 'http://127.0.0.1:5173/');
    await launch();
    expect(vi.mocked(fake.mirrorDesk).mock.calls[0]![3]).toBe('http://127.0.0.1:5173/');
  });

  it('refuses to start on a plain-http remote TRADEDESK_BROKER_URL, naming the variable, before any secret is sent', async () => {
    vi.stubEnv('TRADEDESK_BROKER_URL', 'http://broker.example/v1');
    await launch();
    expect(fake.showErrorBox).toHaveBeenCalledWith(
      'Tradedesk cannot start',
      `TRADEDESK_BROKER_URL: ${BROKER_URL_HTTPS_REQUIRED}`,
    );
    expect(fake.app.exitCode).toBe(2);
    expect(fake.createAppServices).not.toHaveBeenCalled();
  });

  it('passes an https TRADEDESK_BROKER_URL through to the services', async () => {
    vi.stubEnv('TRADEDESK_BROKER_URL', 'https://broker.example/v1');
    await launch();
    expect(vi.mocked(fake.createAppServices).mock.calls[0]![0]).toMatchObject({
      brokerUrl: 'https://broker.example/v1',
    });
  });
});
