import { type EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

/**
 * The Kite login window with a fake `electron` module (no binary runs here): what its session
 * answers a page that asks for a permission or starts a download.
 */
const fake = vi.hoisted(() => ({
  sessions: new Map<string, unknown>(),
  webPreferences: undefined as Record<string, unknown> | undefined,
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class FakeSession extends Emitter {
    request?: (wc: unknown, permission: string, cb: (granted: boolean) => void) => void;
    check?: () => boolean;
    setPermissionRequestHandler(h: FakeSession['request']): void {
      this.request = h;
    }
    setPermissionCheckHandler(h: FakeSession['check']): void {
      this.check = h;
    }
  }
  class FakeBrowserWindow {
    readonly webContents = Object.assign(new Emitter(), { setWindowOpenHandler: () => {} });
    constructor(options: { webPreferences: Record<string, unknown> }) {
      fake.webPreferences = options.webPreferences;
    }
    loadURL(): Promise<void> {
      return Promise.resolve();
    }
    close(): void {}
  }
  return {
    BrowserWindow: FakeBrowserWindow,
    session: {
      fromPartition: (name: string) => {
        if (!fake.sessions.has(name)) fake.sessions.set(name, new FakeSession());
        return fake.sessions.get(name);
      },
    },
  };
});

const { createLoginWindow } = await import('./login-window');

interface LoginSession extends EventEmitter {
  request?: (wc: unknown, permission: string, cb: (granted: boolean) => void) => void;
  check?: () => boolean;
}

describe('Kite login window', () => {
  createLoginWindow('https://kite.example/connect/login?api_key=k', 'http://127.0.0.1:5000');
  const partition = fake.webPreferences?.partition as string;
  const ses = fake.sessions.get(partition) as LoginSession;

  it('opens in its own partition, not the app’s session', () => {
    expect(partition).toBe('kite-login');
    expect(ses).toBeDefined();
  });

  it('its page is refused every permission it asks for', () => {
    const callback = vi.fn();
    ses.request?.({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(ses.check?.()).toBe(false);
  });

  it('a download its page starts is cancelled', () => {
    const event = { preventDefault: vi.fn() };
    ses.emit('will-download', event, {});
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });
});
