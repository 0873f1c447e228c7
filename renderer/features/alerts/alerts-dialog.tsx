import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  INTERVAL_WORDS,
  levelWords,
  StudyInterval,
  type AlertCondition,
  type AlertNotify,
  type PriceAlert,
} from '@shared/domain/alert';
import type { Instrument } from '@shared/domain/instrument';
import { allowedProducts } from '@shared/trading/rules';
import { describeError } from '../../lib/describe-error';
import { formatIstTime, formatPrice } from '../../lib/format';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { RecordTable, RowActions } from '../layout/record-table';
import { useSelectedInstrument } from '../ticket/use-selected-instrument';
import { alertQueries, alertText, useCreateAlert, useDeleteAlert, useUpdateAlert } from './queries';
import { NO_MARKET_DATA, useMarketData } from '../session/use-market-data';
import { useBasket } from '../basket/use-basket';
import {
  conditionsOf,
  conditionWords,
  NEW_ALERT,
  ordersText,
  OUTCOME_WORDS,
  readAlertForm,
  type AlertForm,
  type BasisKind,
} from './alert-form';

/** The conditions of a basis (above, below, crosses…): the new alert's and an edited one's. */
function ConditionSelect(props: {
  readonly label: string;
  readonly basis: BasisKind;
  readonly value: AlertCondition;
  readonly onChange: (c: AlertCondition) => void;
}) {
  const options = conditionsOf(props.basis);
  return (
    <select
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(options.find((c) => c === e.target.value) ?? options[0]!)}
    >
      {options.map((c) => (
        <option key={c} value={c}>
          {conditionWords(c)}
        </option>
      ))}
    </select>
  );
}

/** A typed level, or an error naming the field: a price above zero, or ₹ of MTM (may be negative). */
function readLevel(text: string, mtm: boolean): { price: number } | { error: string } {
  const n = Number(text.replace(/[,\s₹]/g, ''));
  if (text.trim() === '' || !Number.isFinite(n))
    return { error: mtm ? 'MTM: enter ₹' : 'Price: enter a price above zero' };
  return mtm || n > 0 ? { price: n } : { error: 'Price: enter a price above zero' };
}

const BASES: ReadonlyArray<readonly [BasisKind, string]> = [
  ['price', 'Price'],
  ['vwap', 'VWAP'],
  ['ema', 'EMA'],
  ['mtm', "Day's MTM"],
];

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
        columns={['Alert', 'Places', 'Notify', 'State', 'Fired']}
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
  const { basket } = useBasket();
  const [symbol, setSymbol] = useState(selected ? `${selected.tradingsymbol} ${selected.exchange}` : '');
  const [form, setForm] = useState<AlertForm>(NEW_ALERT);
  const [notify, setNotify] = useState<AlertNotify>({ os: false, sound: false });
  const [error, setError] = useState<string | null>(null);
  const create = useCreateAlert();
  const [sym, exchange] = symbol.trim().toUpperCase().split(/\s+/);
  const instrument: Instrument | null =
    list.find((i) => i.tradingsymbol === sym && (!exchange || i.exchange === exchange)) ?? null;
  const change = (patch: Partial<AlertForm>): void => {
    setForm((f) => {
      const next = { ...f, ...patch };
      const conditions = conditionsOf(next.basis);
      return conditions.includes(next.condition) ? next : { ...next, condition: conditions[0]! };
    });
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (create.isPending) return; // the button stays enabled (below): a second click waits for the first
    const read = readAlertForm(form, instrument, basket.legs);
    if ('problem' in read) return setError(read.problem.message);
    setError(null);
    create.mutate(
      { ...read.draft, notify },
      { onSuccess: () => setForm((f) => ({ ...f, level: '', places: 'nothing', quantity: '', limitPrice: '' })) },
    );
  };
  const mtm = form.basis === 'mtm';
  const study = form.basis === 'vwap' || form.basis === 'ema';
  const products = instrument ? allowedProducts(instrument) : (['MIS'] as const);
  return (
    <form className="alert-form" aria-label="New alert" onSubmit={onSubmit}>
      <div className="toolbar">
        {mtm ? null : (
          <input
            aria-label="Alert symbol"
            list="alert-symbols"
            placeholder="Symbol"
            value={symbol}
            onChange={(e) => setSymbol(e.target.value)}
          />
        )}
        <datalist id="alert-symbols">
          {list.slice(0, 2_000).map((i) => (
            <option key={i.instrumentToken} value={`${i.tradingsymbol} ${i.exchange}`} />
          ))}
        </datalist>
        <select
          aria-label="Alert watches"
          value={form.basis}
          onChange={(e) => change({ basis: BASES.find(([k]) => k === e.target.value)?.[0] ?? 'price' })}
        >
          {BASES.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
        <ConditionSelect
          label="Alert condition"
          basis={form.basis}
          value={form.condition}
          onChange={(condition) => change({ condition })}
        />
        {form.basis === 'ema' ? (
          <input
            aria-label="EMA period"
            inputMode="numeric"
            size={4}
            value={form.period}
            onChange={(e) => change({ period: e.target.value })}
          />
        ) : null}
        {study ? (
          <select
            aria-label="Bars"
            value={form.interval}
            onChange={(e) => change({ interval: StudyInterval.catch('5minute').parse(e.target.value) })}
          >
            {StudyInterval.options.map((i) => (
              <option key={i} value={i}>
                {INTERVAL_WORDS[i]} bars
              </option>
            ))}
          </select>
        ) : (
          <input
            aria-label={mtm ? 'Alert MTM' : 'Alert price'}
            inputMode="decimal"
            placeholder={mtm ? '₹ (loss negative)' : 'Price'}
            value={form.level}
            onChange={(e) => change({ level: e.target.value })}
          />
        )}
        <NotifyFields value={notify} onChange={setNotify} label="New alert notifications" />
      </div>
      <div className="toolbar" role="group" aria-label="Places when it fires">
        <label>
          Places{' '}
          <select
            aria-label="Places"
            value={form.places}
            onChange={(e) =>
              change({
                places: e.target.value === 'order' ? 'order' : e.target.value === 'basket' ? 'basket' : 'nothing',
              })
            }
          >
            <option value="nothing">nothing</option>
            {mtm ? null : <option value="order">an order</option>}
            <option value="basket">the basket ({basket.legs.length} legs)</option>
          </select>
        </label>
        {form.places === 'order' ? (
          <>
            <select
              aria-label="Order side"
              value={form.side}
              onChange={(e) => change({ side: e.target.value === 'SELL' ? 'SELL' : 'BUY' })}
            >
              <option value="BUY">BUY</option>
              <option value="SELL">SELL</option>
            </select>
            <input
              aria-label="Order quantity"
              inputMode="numeric"
              placeholder="Qty"
              size={6}
              value={form.quantity}
              onChange={(e) => change({ quantity: e.target.value })}
            />
            <select
              aria-label="Order type"
              value={form.orderType}
              onChange={(e) => change({ orderType: e.target.value === 'LIMIT' ? 'LIMIT' : 'MARKET' })}
            >
              <option value="MARKET">MARKET</option>
              <option value="LIMIT">LIMIT</option>
            </select>
            {form.orderType === 'LIMIT' ? (
              <input
                aria-label="Order limit price"
                inputMode="decimal"
                placeholder="Limit"
                size={8}
                value={form.limitPrice}
                onChange={(e) => change({ limitPrice: e.target.value })}
              />
            ) : null}
            <select
              aria-label="Order product"
              value={form.product}
              onChange={(e) => change({ product: products.find((p) => p === e.target.value) ?? 'MIS' })}
            >
              {products.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <span className="muted">Judged by the risk guard when it fires; sells go after the buys fill.</span>
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
      </div>
    </form>
  );
}

function AlertRow({ alert }: { readonly alert: PriceAlert }) {
  const [editing, setEditing] = useState(false);
  const [condition, setCondition] = useState(alert.condition);
  const [price, setPrice] = useState(alert.price === null ? '' : String(alert.price));
  const [notify, setNotify] = useState<AlertNotify>(alert.notify);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateAlert();
  const remove = useDeleteAlert();
  const study = alert.basis.kind === 'vwap' || alert.basis.kind === 'ema';
  const save = (): void => {
    const p = study ? null : readLevel(price, alert.basis.kind === 'mtm');
    if (p && 'error' in p) return setError(p.error);
    setError(null);
    update.mutate(
      {
        id: alert.id,
        change: {
          condition,
          ...(p ? { price: p.price } : {}),
          ...(alert.basis.kind !== 'price' ? { basis: alert.basis } : {}),
          notify,
        },
      },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <tr data-alert-id={alert.id} data-state={alert.state}>
      <td>
        {editing ? (
          <>
            {alert.basis.kind === 'mtm' ? 'MTM' : alert.tradingsymbol}{' '}
            <ConditionSelect label="Condition" basis={alert.basis.kind} value={condition} onChange={setCondition} />{' '}
            {study ? (
              levelWords(alert, (n) => formatPrice(n))
            ) : (
              <input
                aria-label={alert.basis.kind === 'mtm' ? 'MTM' : 'Price'}
                value={price}
                onChange={(e) => setPrice(e.target.value)}
                size={10}
              />
            )}
            {error ? <span className="field-error"> {error}</span> : null}
          </>
        ) : (
          alertText(alert)
        )}
      </td>
      <td>
        <AlertOrdersCell alert={alert} />
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
          ? `${formatIstTime(alert.triggeredAt)} at ${alert.basis.kind === 'mtm' ? `MTM ₹${formatPrice(alert.triggeredPrice)}` : formatPrice(alert.triggeredPrice)}`
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

/** What an alert places, and what its orders came to when it fired (docs/desk.md §Alerts). */
function AlertOrdersCell({ alert }: { readonly alert: PriceAlert }) {
  const o = alert.outcome;
  return (
    <>
      <span title={alert.orders.map((x) => ordersText([x])).join('\n')}>{ordersText(alert.orders)}</span>
      {o ? (
        <div
          className={o.state === 'placed' ? 'up' : o.state === 'placing' ? 'muted' : 'down'}
          data-outcome={o.state}
          role="status"
        >
          {OUTCOME_WORDS[o.state]}
          {o.state === 'placing' ? '…' : `: ${o.detail}`}
        </div>
      ) : null}
    </>
  );
}
