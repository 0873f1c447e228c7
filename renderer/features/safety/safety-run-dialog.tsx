import { useQuery } from '@tanstack/react-query';
import type { SafetyRun, SafetyStep } from '@shared/domain/safety-run';
import { describeError } from '../../lib/describe-error';
import { formatQty } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { Dialog } from '../layout/dialog';
import { safetyQueries, useRearm, useStopSafetyRun } from './queries';
import { useRunVisible, useSafetyActions } from './safety-store';

const TITLE: Readonly<Record<SafetyRun['action']['kind'], string>> = {
  killSwitch: 'Kill switch',
  cancelSymbol: 'Cancel all',
  exitPositions: 'Exit positions',
  squareOff: 'Square-off',
};

const WHAT: Readonly<Record<SafetyStep['kind'], string>> = {
  cancel: 'Cancel',
  exit: 'Exit',
  unconfirmed: 'Unconfirmed',
};

const STATE: Readonly<Record<SafetyStep['state'], string>> = {
  pending: 'Waiting',
  working: 'Working…',
  done: 'Done',
  failed: 'Still open',
  skipped: 'Nothing to do',
};

/**
 * A safety run's progress and result, order by order (docs/contract.md §Kill switch): what it is
 * doing now, each order's outcome, and once it ends, what is still open at the broker.
 */
export function SafetyRunDialog() {
  const visible = useRunVisible();
  const run = useQuery({ ...safetyQueries.run(), enabled: visible }).data;
  const { runHidden } = useSafetyActions();
  const stop = useStopSafetyRun();
  const rearm = useRearm();
  if (!visible || !run) return null;
  const running = run.state === 'running';
  // Asked for this run: it is stopping until a push says it ended.
  const stopping = running && (stop.isPending || stop.data?.id === run.id);
  return (
    <Dialog title={TITLE[run.action.kind]} onClose={runHidden} wide>
      <p className="safety-headline" role="status" data-testid="safety-headline" data-state={run.state}>
        {run.detail}
      </p>
      <table className="grid safety-steps" aria-label="Orders of the run">
        <thead>
          <tr>
            <th>Symbol</th>
            <th>Side</th>
            <th className="num">Qty</th>
            <th>Action</th>
            <th>Order</th>
            <th>State</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {run.steps.length === 0 ? (
            <tr>
              <td colSpan={7} className="empty">
                {running ? 'Reading the order book…' : 'Nothing to do'}
              </td>
            </tr>
          ) : null}
          {run.steps.map((s) => (
            <tr key={s.id} data-step={s.id} data-state={s.state}>
              <td className="sym">{s.tradingsymbol}</td>
              <td className={s.transactionType === 'BUY' ? 'buy' : 'sell'}>{s.transactionType ?? ''}</td>
              <td className="num">{formatQty(s.quantity)}</td>
              <td>{WHAT[s.kind]}</td>
              <td>
                <code>{s.orderId ?? s.clientOrderId ?? '–'}</code>
              </td>
              <td className={`safety-state--${s.state}`}>{STATE[s.state]}</td>
              <td className="detail">{s.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {running && run.positionsUnreadableSince !== null ? (
        <PositionsUnknown since={run.positionsUnreadableSince} until={null} />
      ) : null}
      {run.stillOpen ? <StillOpenList run={run} /> : null}
      {run.barrierUp ? (
        <p className="safety-barrier" data-testid="safety-barrier">
          The kill switch is on: nothing that adds risk leaves the desk until you re-arm it. Exits that only reduce a
          position still go.
        </p>
      ) : null}
      {stop.error ? (
        <p role="alert" className="inline-error">
          Not stopped: {describeError(stop.error)}
        </p>
      ) : null}
      {rearm.error ? (
        <p role="alert" className="inline-error">
          Not re-armed: {describeError(rearm.error)}
        </p>
      ) : null}
      <div className="form__buttons">
        {run.barrierUp && !running ? (
          <button
            type="button"
            disabled={rearm.isPending}
            title="Orders that add risk may leave the desk again"
            onClick={() => rearm.mutate()}
          >
            {rearm.isPending ? 'Re-arming…' : 'Re-arm trading'}
          </button>
        ) : null}
        {running ? (
          <button
            type="button"
            disabled={stopping}
            title="Sends nothing more, then lists what is still open"
            onClick={() => stop.mutate()}
          >
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : null}
        <button type="button" onClick={runHidden}>
          {running ? 'Hide (it keeps running)' : 'Done'}
        </button>
      </div>
    </Dialog>
  );
}

function StillOpenList({ run }: { readonly run: SafetyRun }) {
  const open = run.stillOpen;
  if (!open) return null;
  const empty = open.orders.length + open.positions.length + open.unconfirmed.length === 0;
  const unknown = open.positionsUnknownSince;
  return (
    <section aria-label="Still open" data-testid="still-open">
      <h3 className="small">Still open{open.verified ? '' : ' (the broker could not be read back: last known)'}</h3>
      {unknown !== null ? <PositionsUnknown since={unknown} until={run.finishedAt} /> : null}
      {empty && unknown !== null ? null : empty ? (
        <p className="muted">Nothing.</p>
      ) : (
        <ul className="safety-list">
          {open.orders.map((o) => (
            <li key={o.orderId}>
              Order <code>{o.orderId}</code> {o.transactionType} {formatQty(o.pendingQuantity)} {o.tradingsymbol} —{' '}
              {o.status}
            </li>
          ))}
          {open.positions.map((p) => (
            <li key={`${p.exchange}:${p.tradingsymbol}:${p.product}`}>
              Position {p.tradingsymbol} {p.product}: {formatQty(p.quantity)}
            </li>
          ))}
          {open.unconfirmed.map((cid) => (
            <li key={cid}>
              Not yet confirmed: <code>{cid}</code> — it may still become an order
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * "Positions unknown: not readable for 42 s — check with your broker" (never "Nothing"): counted
 * up to `until` (the run's end), or to now while it runs.
 */
function PositionsUnknown({ since, until }: { readonly since: number; readonly until: number | null }) {
  const now = useNow();
  const seconds = Math.max(0, Math.round(((until ?? now) - since) / 1000));
  return (
    <p role="alert" className="inline-error" data-testid="positions-unknown">
      Positions unknown: not readable for {seconds} s — check with your broker
    </p>
  );
}
