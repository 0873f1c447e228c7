import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AlertCondition, AlertNotify, PriceAlert } from '@shared/domain/alert';
import { describeError } from '../../lib/describe-error';
import { formatIstTime, formatPrice } from '../../lib/format';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { RecordTable, RowActions } from '../layout/record-table';
import { useSelectedInstrument } from '../ticket/use-selected-instrument';
import { alertQueries, alertText, useCreateAlert, useDeleteAlert, useUpdateAlert } from './queries';
import { NO_MARKET_DATA, useMarketData } from '../session/use-market-data';

const CONDITIONS: readonly AlertCondition[] = ['above', 'below', 'crosses'];

/** Above, below or crosses: the new alert's and an edited one's. */
function ConditionSelect(props: {
  readonly label: string;
  readonly value: AlertCondition;
  readonly onChange: (c: AlertCondition) => void;
}) {
  return (
    <select
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(CONDITIONS.find((c) => c === e.target.value) ?? 'above')}
    >
      {CONDITIONS.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}

/** A typed price, or an error naming what is wrong with it. */
function readPrice(text: string): { price: number } | { error: string } {
  const n = Number(text.replace(/[,\s₹]/g, ''));
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? { price: n } : { error: 'Enter a price above zero' };
}

/**
 * The two switches of how an alert notifies (docs/contract.md §Alert notifications): the OS
 * notification (the desktop app shows it; the browser has none) and a tone in the page.
 */
function NotifyFields(props: {
  readonly value: AlertNotify;
  readonly onChange: (v: AlertNotify) => void;
  readonly label: string;
}) {
  const { value, onChange } = props;
  return (
    <span role="group" aria-label={props.label} className="alert-notify">
      <label title="Also shown by the operating system, even with the window hidden (desktop app only)">
        <input type="checkbox" checked={value.os} onChange={(e) => onChange({ ...value, os: e.target.checked })} /> OS
        notification
      </label>{' '}
      <label title="A short tone when it fires">
        <input
          type="checkbox"
          checked={value.sound}
          onChange={(e) => onChange({ ...value, sound: e.target.checked })}
        />{' '}
        Sound
      </label>
    </span>
  );
}

/** "OS notification, sound", "–": how an alert notifies besides its toast. */
function notifyText(n: AlertNotify): string {
  const parts = [n.os ? 'OS notification' : null, n.sound ? 'sound' : null].filter((x) => x !== null);
  return parts.length === 0 ? '–' : parts.join(', ');
}

/** The header's way into the alerts: how many are armed. */
export function AlertsButton(props: { readonly onOpen: () => void }) {
  const alerts = useQuery(alertQueries.list()).data ?? [];
  const active = alerts.filter((a) => a.state === 'active').length;
  return (
    <button type="button" className="risk-chip" onClick={props.onOpen} data-testid="alerts-button">
      Alerts{alerts.length > 0 ? ` (${active} armed)` : ''}
    </button>
  );
}

/**
 * Price alerts (docs/contract.md §Price alerts): add one on any instrument (the selected one by
 * default), see each one's state and when it fired, edit it (which arms it again) or delete it.
 */
export function AlertsDialog(props: { readonly onClose: () => void }) {
  const alerts = useQuery(alertQueries.list());
  const marketData = useMarketData();
  return (
    <Dialog title="Price alerts" onClose={props.onClose} wide>
      {marketData ? null : (
        <p className="inline-warning" role="note">
          Alerts are off. {NO_MARKET_DATA}: alerts are checked on live prices, which this account does not get. They are
          kept, and checked again once it has them.
        </p>
      )}
      <NewAlert />
      <RecordTable
        label="Alerts"
        columns={['Alert', 'Notify', 'State', 'Fired']}
        records={alerts.data}
        error={alerts.error}
        what="alerts"
        empty="No alerts"
        row={(a) => <AlertRow key={a.id} alert={a} />}
      />
    </Dialog>
  );
}

function NewAlert() {
  const selected = useSelectedInstrument();
  const { list } = useInstruments();
  const [symbol, setSymbol] = useState(selected ? `${selected.tradingsymbol} ${selected.exchange}` : '');
  const [condition, setCondition] = useState<AlertCondition>('above');
  const [price, setPrice] = useState('');
  const [notify, setNotify] = useState<AlertNotify>({ os: false, sound: false });
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAlert();
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (create.isPending) return; // the button stays enabled (below): a second click waits for the first
    const [sym, exchange] = symbol.trim().toUpperCase().split(/\s+/);
    const instrument = list.find((i) => i.tradingsymbol === sym && (!exchange || i.exchange === exchange));
    if (!instrument) return setError('Choose an instrument from the list');
    const p = readPrice(price);
    if ('error' in p) return setError(p.error);
    setError(null);
    create.mutate(
      { instrumentToken: instrument.instrumentToken, condition, price: p.price, notify },
      { onSuccess: () => setPrice('') },
    );
  };
  return (
    <form className="toolbar" aria-label="New alert" onSubmit={onSubmit}>
      <input
        aria-label="Alert symbol"
        list="alert-symbols"
        placeholder="Symbol"
        value={symbol}
        onChange={(e) => setSymbol(e.target.value)}
      />
      <datalist id="alert-symbols">
        {list.slice(0, 2_000).map((i) => (
          <option key={i.instrumentToken} value={`${i.tradingsymbol} ${i.exchange}`} />
        ))}
      </datalist>
      <ConditionSelect label="Alert condition" value={condition} onChange={setCondition} />
      <input
        aria-label="Alert price"
        inputMode="decimal"
        placeholder="Price"
        value={price}
        onChange={(e) => setPrice(e.target.value)}
      />
      <NotifyFields value={notify} onChange={setNotify} label="New alert notifications" />
      {/* The instrument list may still be loading right after start: wait for it rather than refuse.
          Not disabled while an alert is being added: a focused button that turns disabled drops the
          focus to the page, where Esc no longer reaches the dialog. */}
      <button type="submit" className="primary" disabled={list.length === 0}>
        {list.length === 0 ? 'Loading instruments…' : 'Add alert'}
      </button>
      {error || create.error ? (
        <span role="alert" className="inline-error">
          {error ?? describeError(create.error)}
        </span>
      ) : null}
    </form>
  );
}

function AlertRow({ alert }: { readonly alert: PriceAlert }) {
  const [editing, setEditing] = useState(false);
  const [condition, setCondition] = useState(alert.condition);
  const [price, setPrice] = useState(String(alert.price));
  const [notify, setNotify] = useState<AlertNotify>(alert.notify);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateAlert();
  const remove = useDeleteAlert();
  const save = (): void => {
    const p = readPrice(price);
    if ('error' in p) return setError(p.error);
    setError(null);
    update.mutate(
      { id: alert.id, change: { condition, price: p.price, notify } },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <tr data-alert-id={alert.id} data-state={alert.state}>
      <td>
        {editing ? (
          <>
            {alert.tradingsymbol} <ConditionSelect label="Condition" value={condition} onChange={setCondition} />{' '}
            <input aria-label="Price" value={price} onChange={(e) => setPrice(e.target.value)} size={10} />
            {error ? <span className="field-error"> {error}</span> : null}
          </>
        ) : (
          alertText(alert)
        )}
      </td>
      <td>
        {editing ? (
          <NotifyFields value={notify} onChange={setNotify} label={`Notifications of ${alertText(alert)}`} />
        ) : (
          notifyText(alert.notify)
        )}
      </td>
      <td>{alert.state === 'active' ? 'Armed' : 'Fired'}</td>
      <td>
        {alert.triggeredAt !== null
          ? `${formatIstTime(alert.triggeredAt)} at ${formatPrice(alert.triggeredPrice)}`
          : '–'}
      </td>
      <RowActions>
        {editing ? (
          <button type="button" onClick={save} disabled={update.isPending}>
            Save
          </button>
        ) : (
          <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${alertText(alert)}`}>
            Edit
          </button>
        )}
        <button type="button" onClick={() => remove.mutate(alert.id)} aria-label={`Delete ${alertText(alert)}`}>
          Delete
        </button>
      </RowActions>
    </tr>
  );
}
