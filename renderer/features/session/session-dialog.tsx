import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { brokerUrlProblem } from '@shared/domain/broker-url';
import type { BrokerProfile } from '@shared/domain/session';
import { describeError } from '../../lib/describe-error';
import { AppError } from '@shared/ipc/app-error';
import { useSessionExpired } from '../../state/session-banner-store';
import { Dialog } from '../layout/dialog';
import { orderQueries } from '../orders/queries';
import { sessionQueries, useKiteLogin, useLogin } from './queries';
import { KITE_SETTINGS_DEFAULT, KiteSettingsFields, kiteSettingsOf } from './kite-settings-fields';

/** True when a read failed because the broker no longer accepts the session. */
function isUnauthorized(error: unknown): boolean {
  return error instanceof AppError && error.info.kind === 'unauthorized';
}

/**
 * Decides when to ask the trader to log in: no session, an expired one (the `session.expired`
 * push), or reads refused as unauthorized.
 */
export function SessionGate() {
  const status = useQuery(sessionQueries.status());
  const orders = useQuery(orderQueries.list());
  const expired = useSessionExpired();
  const needsLogin =
    expired !== null ||
    (status.data !== undefined && status.data.state !== 'connected') ||
    isUnauthorized(orders.error) ||
    isUnauthorized(status.error);
  if (!needsLogin) return null;
  const why =
    expired ??
    (status.data?.state === 'expired' || isUnauthorized(orders.error)
      ? 'Your session has expired.'
      : 'You are not logged in.');
  return <SessionDialog reason={why} />;
}

/**
 * The login/profile dialog: the embedded paper broker (default, no account), a REST broker
 * with URL, API key and secret, or Zerodha Kite with its API key and either the secret (log in
 * through Kite's page, which redirects to main) or the day's access token. Keys, secrets and
 * tokens live only in this form's state until they are sent to main; they are never stored in
 * the renderer.
 */
export function SessionDialog({ reason }: { readonly reason: string }) {
  const [kind, setKind] = useState<'paper' | 'rest' | 'kite'>('paper');
  const [kiteWay, setKiteWay] = useState<'page' | 'token'>('page');
  const [accessToken, setAccessToken] = useState('');
  const kiteLogin = useKiteLogin();
  const [baseUrl, setBaseUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [kiteSettings, setKiteSettings] = useState(KITE_SETTINGS_DEFAULT);
  const [kiteSettingsError, setKiteSettingsError] = useState<string | null>(null);
  const login = useLogin();

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (login.isPending) return;
    // The secret never leaves for a URL main would refuse (cleartext http to another machine).
    const problem = kind === 'rest' || (kind === 'kite' && baseUrl !== '') ? brokerUrlProblem(baseUrl) : null;
    setUrlError(problem);
    if (problem) return;
    const kiteUrl = baseUrl !== '' ? { baseUrl } : {};
    const kite = kind === 'kite' ? kiteSettingsOf(kiteSettings) : null;
    if (kite && 'error' in kite) {
      setKiteSettingsError(kite.error);
      return;
    }
    const settings = kite?.settings ?? {};
    if (kind === 'kite' && kiteWay === 'page') {
      if (kiteLogin.isPending) return;
      kiteLogin.mutate({ ...kiteUrl, apiKey, apiSecret, ...settings }, { onSettled: () => setApiSecret('') });
      return;
    }
    const profile: BrokerProfile =
      kind === 'paper'
        ? { kind: 'paper' }
        : kind === 'kite'
          ? { kind: 'kite', ...kiteUrl, apiKey, accessToken, ...settings }
          : { kind: 'rest', baseUrl, apiKey, apiSecret };
    login.mutate(profile, {
      onSuccess: () => {
        setApiSecret('');
        setApiKey('');
        login.reset();
      },
      onError: () => {
        setApiSecret('');
        setAccessToken('');
      },
    });
  };

  return (
    <Dialog title="Log in to a broker">
      <form aria-label="Log in" className="form" onSubmit={submit}>
        <p className="muted">{reason}</p>
        <fieldset>
          <legend>Profile</legend>
          <label className="check">
            <input type="radio" name="profile" checked={kind === 'paper'} onChange={() => setKind('paper')} />
            Paper broker (simulated, no account needed)
          </label>
          <label className="check">
            <input type="radio" name="profile" checked={kind === 'rest'} onChange={() => setKind('rest')} />
            REST broker
          </label>
          <label className="check">
            <input type="radio" name="profile" checked={kind === 'kite'} onChange={() => setKind('kite')} />
            Zerodha Kite
          </label>
        </fieldset>
        {kind === 'kite' ? (
          <>
            <BrokerUrlField
              label="Kite API URL (optional)"
              placeholder="https://api.kite.trade"
              value={baseUrl}
              error={urlError}
              onChange={(v) => {
                setBaseUrl(v);
                setUrlError(null);
              }}
            />
            <label>
              API key
              <input required autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
            </label>
            <fieldset>
              <legend>How to log in</legend>
              <label className="check">
                <input type="radio" name="kite-way" checked={kiteWay === 'page'} onChange={() => setKiteWay('page')} />
                Through Kite&apos;s login page (API secret)
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="kite-way"
                  checked={kiteWay === 'token'}
                  onChange={() => setKiteWay('token')}
                />
                Paste today&apos;s access token
              </label>
            </fieldset>
            {kiteWay === 'page' ? (
              <label>
                API secret
                <input
                  type="password"
                  required
                  autoComplete="off"
                  value={apiSecret}
                  onChange={(e) => setApiSecret(e.target.value)}
                />
              </label>
            ) : (
              <label>
                Access token
                <input
                  type="password"
                  required
                  autoComplete="off"
                  value={accessToken}
                  onChange={(e) => setAccessToken(e.target.value)}
                />
              </label>
            )}
            <KiteSettingsFields
              value={kiteSettings}
              error={kiteSettingsError}
              onChange={(next) => {
                setKiteSettings(next);
                setKiteSettingsError(null);
              }}
            />
            <p className="muted">Kite sessions end at 6:00 AM IST; log in again each trading day.</p>
            {kiteLogin.data ? (
              <p role="status">
                Waiting for the Kite login…{' '}
                {kiteLogin.data.opened ? null : (
                  <a href={kiteLogin.data.loginUrl} target="_blank" rel="noopener noreferrer">
                    Open Kite&apos;s login page
                  </a>
                )}
              </p>
            ) : null}
            {kiteLogin.error ? (
              <p role="alert" className="inline-error">
                Kite login failed: {describeError(kiteLogin.error)}
              </p>
            ) : null}
          </>
        ) : null}
        {kind === 'rest' ? (
          <>
            <BrokerUrlField
              label="Broker URL"
              required
              placeholder="https://broker.example/v1"
              value={baseUrl}
              error={urlError}
              onChange={(v) => {
                setBaseUrl(v);
                setUrlError(null);
              }}
            />
            <label>
              API key
              <input required autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
            </label>
            <label>
              API secret
              <input
                type="password"
                required
                autoComplete="off"
                value={apiSecret}
                onChange={(e) => setApiSecret(e.target.value)}
              />
            </label>
          </>
        ) : null}
        {login.error ? (
          <p role="alert" className="inline-error">
            Login failed: {describeError(login.error)}
          </p>
        ) : null}
        <div className="form__buttons">
          <button type="submit" className="primary" disabled={login.isPending || kiteLogin.isPending}>
            {login.isPending ? 'Logging in…' : kind === 'kite' && kiteWay === 'page' ? 'Log in with Kite' : 'Log in'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The broker URL box with its error under it (the REST broker's, or Kite's optional API root). */
function BrokerUrlField(props: {
  readonly label: string;
  readonly required?: boolean;
  readonly placeholder: string;
  readonly value: string;
  readonly error: string | null;
  readonly onChange: (value: string) => void;
}) {
  return (
    <>
      <label>
        {props.label}
        <input
          type="url"
          required={props.required}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          placeholder={props.placeholder}
          aria-invalid={props.error !== null || undefined}
          aria-describedby={props.error ? 'session-url-error' : undefined}
        />
      </label>
      {props.error ? (
        <span className="field-error" id="session-url-error">
          {props.error}
        </span>
      ) : null}
    </>
  );
}
