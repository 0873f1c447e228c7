import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { BrokerDescriptor, LoginKind } from '@shared/domain/broker-descriptor';
import { describeError } from '../../lib/describe-error';
import { AppError } from '@shared/ipc/app-error';
import { useSessionExpired } from '../../state/session-banner-store';
import { Dialog } from '../layout/dialog';
import { orderQueries } from '../orders/queries';
import { sessionQueries, useLogin, useLoginPage } from './queries';
import { ProfileFields } from './profile-fields';
import { fieldsFor, profileOf, refusedField, withoutSecrets, type ProfileValues } from './profile-form';

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
  // Read while connected too, so the dialog opens at once with its kinds when the session ends.
  useQuery(sessionQueries.brokers());
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
 * The login/profile dialog, drawn from the broker kinds main's registry offers
 * (`brokers.list`, docs/brokers.md §The broker registry): a radio per kind, its ways of logging
 * in when it has more than one, and its fields. Keys, secrets and tokens live only in this form's
 * state until they are sent to main; they are never stored in the renderer.
 */
export function SessionDialog({ reason }: { readonly reason: string }) {
  const brokers = useQuery(sessionQueries.brokers());
  // The dialog opens with its kinds in place, so the focus starts on the first of them.
  if (brokers.data === undefined && !brokers.isError) return null;
  return (
    <Dialog title="Log in to a broker">
      {brokers.data ? (
        <SessionForm reason={reason} brokers={brokers.data} />
      ) : (
        <p role="alert" className="inline-error">
          Could not read the brokers: {describeError(brokers.error)}
        </p>
      )}
    </Dialog>
  );
}

function SessionForm(props: { readonly reason: string; readonly brokers: readonly BrokerDescriptor[] }) {
  const [kind, setKind] = useState(props.brokers[0]?.kind ?? 'paper');
  const broker = props.brokers.find((b) => b.kind === kind);
  const [chosenWay, setWay] = useState<LoginKind | null>(null);
  const way = broker?.logins.find((l) => l.kind === chosenWay)?.kind ?? broker?.logins[0]?.kind ?? 'none';
  const [values, setValues] = useState<ProfileValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const login = useLogin();
  const loginPage = useLoginPage();
  const failure = way === 'login-window' ? loginPage.error : login.error;
  const refused = failure instanceof AppError ? refusedField(failure.info.field) : null;
  const shown = refused && failure instanceof AppError ? { [refused]: failure.info.message, ...errors } : errors;

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (!broker || login.isPending || loginPage.isPending) return;
    const made = profileOf(broker, way, values);
    if ('errors' in made) {
      // The secret never leaves for a URL main would refuse (cleartext http to another machine).
      setErrors(made.errors);
      return;
    }
    const forget = () => setValues((v) => withoutSecrets(broker, v));
    if (way === 'login-window') loginPage.mutate(made.profile, { onSettled: forget });
    else login.mutate(made.profile, { onSuccess: () => login.reset(), onSettled: forget });
  };

  return (
    <form aria-label="Log in" className="form" onSubmit={submit}>
      <p className="muted">{props.reason}</p>
      <fieldset>
        <legend>Profile</legend>
        {props.brokers.map((b) => (
          <label className="check" key={b.kind}>
            <input type="radio" name="profile" checked={kind === b.kind} onChange={() => setKind(b.kind)} />
            {b.title}
          </label>
        ))}
      </fieldset>
      {broker && broker.logins.length > 1 ? (
        <fieldset>
          <legend>How to log in</legend>
          {broker.logins.map((l) => (
            <label className="check" key={l.kind}>
              <input type="radio" name="login-way" checked={way === l.kind} onChange={() => setWay(l.kind)} />
              {l.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      {broker ? (
        <ProfileFields
          fields={fieldsFor(broker, way)}
          values={values}
          errors={shown}
          onChange={(name, value) => {
            setValues((v) => ({ ...v, [name]: value }));
            setErrors(({ [name]: _, ...rest }) => rest);
          }}
        />
      ) : null}
      {broker?.note ? <p className="muted">{broker.note}</p> : null}
      {way === 'login-window' && loginPage.data ? (
        <p role="status">
          Waiting for the login at {broker?.title}…{' '}
          {loginPage.data.opened ? null : (
            <a href={loginPage.data.loginUrl} target="_blank" rel="noopener noreferrer">
              Open the login page
            </a>
          )}
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="inline-error">
          Login failed: {describeError(failure)}
        </p>
      ) : null}
      <div className="form__buttons">
        <button type="submit" className="primary" disabled={login.isPending || loginPage.isPending}>
          {login.isPending ? 'Logging in…' : way === 'login-window' ? `Log in with ${broker?.title}` : 'Log in'}
        </button>
      </div>
    </form>
  );
}
