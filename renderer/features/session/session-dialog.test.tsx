import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { SessionDialog } from './session-dialog';
import { SHIPPED_BROKERS } from '@shared/domain/shipped-brokers';
import { FAKE_BROKER } from '@shared/testing/fake-broker';

let bridge: FakeBridge;

beforeEach(() => {
  bridge = createFakeBridge({
    'session.login': () => ({
      ok: true,
      data: {
        state: 'connected',
        broker: 'rest',
        brokerLabel: 'broker.example',
        userId: 'AB1234',
        scope: 'trade',
        expiresAt: null,
        version: { run: 'r', seq: 2 },
      },
    }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

/** The dialog as the session gate opens it, once main's broker kinds have arrived. */
async function renderDialog() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionDialog reason="You are not logged in." />
    </QueryClientProvider>,
  );
  return { user, form: within(await screen.findByRole('form', { name: 'Log in' })) };
}

/** Opens the dialog on the REST profile and fills it in. */
async function fillRest(url: string) {
  const { user, form } = await renderDialog();
  await user.click(form.getByRole('radio', { name: 'REST broker' }));
  await user.type(form.getByLabelText('Broker URL'), url);
  await user.type(form.getByLabelText('API key'), 'key');
  await user.type(form.getByLabelText('API secret'), 'secret');
  await user.click(form.getByRole('button', { name: 'Log in' }));
  return { user, form };
}

describe('SessionDialog broker URL', () => {
  it('refuses a plain-http remote URL next to the field and sends nothing (the secret stays here)', async () => {
    const { form } = await fillRest('http://broker.example/v1');
    const field = form.getByLabelText('Broker URL');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(form.getByText(/^Broker URL must use https:\/\//).id).toBe(field.getAttribute('aria-describedby'));
    expect(bridge.callsOf('session.login')).toHaveLength(0);
  });

  it.each(['https://broker.example/v1', 'http://127.0.0.1:8750/v1'])('sends the login for %s', async (url) => {
    const { form } = await fillRest(url);
    await waitFor(() => expect(bridge.callsOf('session.login')).toHaveLength(1));
    expect(bridge.callsOf('session.login')[0]!.payload).toMatchObject({ profile: { kind: 'rest', baseUrl: url } });
    expect(form.getByLabelText('Broker URL').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('SessionDialog on Zerodha Kite', () => {
  async function openKite() {
    const { user, form } = await renderDialog();
    await user.click(form.getByRole('radio', { name: 'Zerodha Kite' }));
    await user.type(form.getByLabelText('API key'), 'kitekey');
    return { user, form };
  }

  it('with the secret, asks main to start Kite’s login page and opens it in a new tab', async () => {
    const opened: string[] = [];
    const open = vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    bridge.answer('session.loginPage', () => ({
      ok: true,
      data: { loginUrl: 'https://kite.zerodha.com/connect/login?v=3&api_key=kitekey', opened: false },
    }));
    const { user, form } = await openKite();
    await user.type(form.getByLabelText('API secret'), 'sec');
    await user.click(form.getByRole('button', { name: 'Log in with Zerodha Kite' }));
    await waitFor(() => expect(opened).toEqual(['https://kite.zerodha.com/connect/login?v=3&api_key=kitekey']));
    expect(bridge.callsOf('session.loginPage')[0]!.payload).toEqual({
      profile: { kind: 'kite', apiKey: 'kitekey', apiSecret: 'sec' },
    });
    expect(bridge.callsOf('session.login')).toHaveLength(0);
    expect(form.getByRole('status').textContent).toMatch(/Waiting for the login at Zerodha Kite/);
    // The secret left the form with the login.
    expect((form.getByLabelText('API secret') as HTMLInputElement).value).toBe('');
    open.mockRestore();
  });

  it('with a pasted access token, logs in with a Kite profile carrying the token and no secret', async () => {
    const { user, form } = await openKite();
    await user.type(form.getByLabelText('API secret'), 'not-this-way');
    await user.click(form.getByRole('radio', { name: /access token/ }));
    await user.type(form.getByLabelText('Access token'), 'tok123');
    await user.click(form.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(bridge.callsOf('session.login')).toHaveLength(1));
    expect(bridge.callsOf('session.login')[0]!.payload).toEqual({
      profile: { kind: 'kite', apiKey: 'kitekey', accessToken: 'tok123' },
    });
  });

  it('market protection is automatic unless a percentage is typed; one main refuses is shown next to the field', async () => {
    bridge.answer('session.login', () => ({
      ok: false,
      error: {
        kind: 'bad_request',
        message: 'Market protection is automatic (-1) or a percentage above 0 and up to 100, two decimals at most',
        field: 'profile.marketProtection',
      },
    }));
    const { user, form } = await openKite();
    await user.click(form.getByRole('radio', { name: /access token/ }));
    await user.type(form.getByLabelText('Access token'), 'tok123');
    const pct = form.getByLabelText('Market protection %');
    await user.type(pct, 'two');
    await user.click(form.getByRole('button', { name: 'Log in' }));
    // Not a number: told here, nothing sent.
    expect(form.getByText('Market protection % must be a number, such as 2 or 0.5')).toBeTruthy();
    expect(bridge.callsOf('session.login')).toHaveLength(0);
    await user.clear(pct);
    await user.type(pct, '150');
    await user.click(form.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(pct.getAttribute('aria-invalid')).toBe('true'));
    expect(form.getByText(/^Market protection is automatic \(-1\) or a percentage/).id).toBe(
      pct.getAttribute('aria-describedby')?.split(' ')[0],
    );
    expect(bridge.callsOf('session.login')[0]!.payload).toMatchObject({ profile: { marketProtection: 150 } });
    // The token left the form with the refused login: typed again.
    await user.type(form.getByLabelText('Access token'), 'tok123');
    await user.clear(pct);
    await user.type(pct, '2.5');
    await user.click(form.getByRole('checkbox', { name: /IPv4 only/ }));
    await user.click(form.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(bridge.callsOf('session.login')).toHaveLength(2));
    expect(bridge.callsOf('session.login')[1]!.payload).toEqual({
      profile: { kind: 'kite', apiKey: 'kitekey', accessToken: 'tok123', marketProtection: 2.5, ipv4Only: true },
    });
  });
});

describe('SessionDialog on a broker it was never written for', () => {
  it('offers the kind main describes, draws its fields and sends its profile', async () => {
    bridge.answer('brokers.list', () => ({ ok: true, data: [...SHIPPED_BROKERS, FAKE_BROKER] }));
    const { user, form } = await renderDialog();
    await user.click(form.getByRole('radio', { name: 'Fake Securities' }));
    expect(form.getByText('Fake Securities sessions end at midnight.')).toBeTruthy();
    expect(form.getByLabelText('PIN').getAttribute('type')).toBe('password');
    expect(form.getByText('As on your contract note.').id).toBe(
      form.getByLabelText('Client code').getAttribute('aria-describedby'),
    );
    await user.type(form.getByLabelText('Fake API URL'), 'https://api.fake.example');
    await user.type(form.getByLabelText('Client code'), 'C123');
    await user.type(form.getByLabelText('PIN'), '4321');
    await user.click(form.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(bridge.callsOf('session.login')).toHaveLength(1));
    expect(bridge.callsOf('session.login')[0]!.payload).toEqual({
      profile: { kind: 'fake', baseUrl: 'https://api.fake.example', apiKey: 'C123', apiSecret: '4321' },
    });
  });
});
