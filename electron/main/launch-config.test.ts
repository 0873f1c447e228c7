import { describe, expect, it, vi } from 'vitest';
import { decideLaunch, holdQuitUntilClosed, settleWithin } from './launch-config';

describe('decideLaunch', () => {
  it('refuses a dev server that is not on this machine, naming the variable', () => {
    const d = decideLaunch({ VITE_DEV_SERVER_URL: 'http://attacker.example:5173/' }, false);
    expect(d).toEqual({
      ok: false,
      error: expect.stringMatching(/^VITE_DEV_SERVER_URL must be a dev server on this machine/),
    });
  });

  it('trusts a loopback dev server with the bridge only in a development build', () => {
    const dev = decideLaunch({ VITE_DEV_SERVER_URL: 'http://localhost:5173/' }, false);
    expect(dev.ok && [...dev.config.allowedOrigins]).toEqual(['app://tradedesk', 'http://localhost:5173']);
    const packaged = decideLaunch({ VITE_DEV_SERVER_URL: 'http://localhost:5173/' }, true);
    expect(packaged.ok && [...packaged.config.allowedOrigins]).toEqual(['app://tradedesk']);
  });

  it('takes the broker from the environment only over https or loopback http', () => {
    expect(decideLaunch({ TRADEDESK_BROKER_URL: 'http://127.0.0.1:8750/v1', TRADEDESK_API_KEY: 'k' }, true)).toEqual({
      ok: true,
      config: expect.objectContaining({ broker: { brokerUrl: 'http://127.0.0.1:8750/v1', apiKey: 'k' } }),
    });
    expect(decideLaunch({ TRADEDESK_BROKER_URL: 'http://broker.example/v1' }, true)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^TRADEDESK_BROKER_URL: Broker URL must use https:\/\//),
    });
  });

  it('checks for updates only against an https feed, and only when one is configured', () => {
    expect(decideLaunch({}, true)).toMatchObject({ ok: true, config: { updateFeed: null } });
    expect(decideLaunch({ TRADEDESK_UPDATE_FEED: 'https://updates.example/feed.json' }, true)).toMatchObject({
      ok: true,
      config: { updateFeed: 'https://updates.example/feed.json' },
    });
    expect(decideLaunch({ TRADEDESK_UPDATE_FEED: 'http://updates.example/feed.json' }, true)).toEqual({
      ok: false,
      error: 'TRADEDESK_UPDATE_FEED must be an https URL, got "http://updates.example/feed.json"',
    });
  });
});

describe('settleWithin', () => {
  it('resolves when closing fails, after reporting the error', async () => {
    const onError = vi.fn();
    await settleWithin(Promise.reject(new Error('ledger flush failed')), 5_000, onError, () => 0);
    expect(onError).toHaveBeenCalledWith(new Error('ledger flush failed'));
  });
});

describe('holdQuitUntilClosed', () => {
  it('holds the first quit until the services have closed, then quits once; a quit after that passes', async () => {
    let handler: ((e: { preventDefault(): void }) => void) | null = null;
    const quits: string[] = [];
    let finishClose: () => void = () => undefined;
    const closing = new Promise<void>((resolve) => (finishClose = resolve));
    holdQuitUntilClosed(
      { onBeforeQuit: (h) => (handler = h), quit: () => quits.push('quit') },
      () => closing,
      60_000,
      () => undefined,
    );
    const held = vi.fn();
    handler!({ preventDefault: held });
    handler!({ preventDefault: held }); // a second Cmd+Q while closing: still held, one close
    expect(held).toHaveBeenCalledTimes(2);
    expect(quits).toEqual([]);
    finishClose();
    await vi.waitFor(() => expect(quits).toEqual(['quit']));
    const after = vi.fn();
    handler!({ preventDefault: after });
    expect(after).not.toHaveBeenCalled();
  });
});
