import { describe, expect, it } from 'vitest';
import { loginNavigationAllowed } from './login-navigation';

describe('the login window’s navigation rule', () => {
  const login = 'https://kite.zerodha.com';
  const callback = 'http://127.0.0.1:5174/kite/callback';
  it('stays on the login origin and may reach the loopback callback path only', () => {
    expect(loginNavigationAllowed('https://kite.zerodha.com/connect/finish?x=1', login, callback)).toBe(true);
    expect(loginNavigationAllowed('http://127.0.0.1:5174/kite/callback?request_token=a', login, callback)).toBe(true);
    expect(loginNavigationAllowed('http://127.0.0.1:5174/other', login, callback)).toBe(false);
    expect(loginNavigationAllowed('https://evil.example/kite/callback', login, callback)).toBe(false);
    expect(loginNavigationAllowed('http://kite.zerodha.com/connect', login, callback)).toBe(false);
    expect(loginNavigationAllowed('not a url', login, callback)).toBe(false);
  });

  it('reaches the callback path of the kind logging in, and no other kind’s', () => {
    const upstox = 'http://127.0.0.1:5174/upstox/callback';
    const dialog = 'https://api.upstox.com';
    expect(loginNavigationAllowed('http://127.0.0.1:5174/upstox/callback?code=a&state=s', dialog, upstox)).toBe(true);
    expect(loginNavigationAllowed('http://127.0.0.1:5174/kite/callback?request_token=a', dialog, upstox)).toBe(false);
  });
});
