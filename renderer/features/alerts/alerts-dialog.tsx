import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { levelWords, type AlertNotify, type PriceAlert } from '@shared/domain/alert';
import { formatIstTime, formatPrice } from '../../lib/format';
import { Dialog } from '../layout/dialog';
import { RecordTable, RowActions } from '../layout/record-table';
import { alertQueries, alertText, useDeleteAlert, useUpdateAlert } from './queries';
import { NO_MARKET_DATA, useMarketData } from '../session/use-market-data';
import { ordersText, OUTCOME_WORDS } from './alert-form';
import { ConditionSelect, NotifyFields } from './alert-fields';
import { NewAlert } from './new-alert';

/** A typed level, or an error naming the field: a price above zero, or ₹ of MTM (may be negative). */
function readLevel(text: string, mtm: boolean): { price: number } | { error: string } {
  const n = Number(text.replace(/[,\s₹]/g, ''));
  if (text.trim() === '' || !Number.isFinite(n))
    return { error: mtm ? 'MTM: enter ₹' : 'Price: enter a price above zero' };
  return mtm || n > 0 ? { price: n } : { error: 'Price: enter a price above zero' };
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
