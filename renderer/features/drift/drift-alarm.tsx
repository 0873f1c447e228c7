import { useQuery } from '@tanstack/react-query';
import type { DriftKind, DriftStatus } from '@shared/domain/drift';
import { describeError } from '../../lib/describe-error';
import { formatIstTime } from '../../lib/format';
import { Dialog } from '../layout/dialog';
import { RecordTable, RowActions } from '../layout/record-table';
import { useDriftActions, useDriftDialogOpen } from './drift-store';
import { driftQueries, useAcknowledgeDrift, useCheckDrift, useDriftEvents } from './queries';
import './drift.css';

const KIND_LABEL: Record<DriftKind, string> = {
  outside_order: 'Placed elsewhere',
  missing_order: 'Missing order',
  unseen_fill: 'Unseen fill',
  position: 'Position',
};

/** The header's words for the alarm: amber with a count when there are findings, or when it could not check. */
export function driftChipText(s: DriftStatus | undefined): { text: string; warn: boolean } {
  if (!s) return { text: 'Drift', warn: false };
  const n = s.findings.length;
  if (n > 0) return { text: `Drift: ${n} ${n === 1 ? 'difference' : 'differences'}`, warn: true };
  if (s.failure) return { text: 'Drift: not checked', warn: true };
  return { text: 'In sync', warn: false };
}

/**
 * The header's drift warning (docs/contract.md §Drift alarm): amber and counting the findings
 * when main's view and the broker's differ, amber when the last check could not read the broker,
 * quiet otherwise. Opens the dialog.
 */
export function DriftHeaderButton() {
  useDriftEvents();
  const status = useQuery(driftQueries.status());
  const { toggled } = useDriftActions();
  if (status.isError) return null;
  const { text, warn } = driftChipText(status.data);
  return (
    <button
      type="button"
      className={`risk-chip${warn ? ' drift-chip--warn' : ''}`}
      data-testid="drift-chip"
      title={status.data?.failure ?? 'Compare Tradedesk with the broker'}
      onClick={() => toggled(true)}
    >
      {text}
    </button>
  );
}

/** The drift dialog, when open. */
export function DriftDialogSlot() {
  const open = useDriftDialogOpen();
  const { toggled } = useDriftActions();
  return open ? <DriftDialog onClose={() => toggled(false)} /> : null;
}

/** Each finding with when it was first seen and an Acknowledge action; "Check now" runs a check at once. */
export function DriftDialog(props: { readonly onClose: () => void }) {
  const status = useQuery(driftQueries.status());
  const check = useCheckDrift();
  const ack = useAcknowledgeDrift();
  const s = status.data;
  const error = check.error ?? ack.error;
  return (
    <Dialog title="Drift from the broker" onClose={props.onClose} wide>
      <p className="muted small" data-testid="drift-checked">
        {s?.checking
          ? 'Checking…'
          : s?.checkedAt
            ? `Last compared with the broker at ${formatIstTime(s.checkedAt)} IST`
            : 'Not compared with the broker yet'}
        {s && s.suspected > 0 ? ` · ${s.suspected} being checked again` : ''}
      </p>
      {s?.failure ? (
        <p role="alert" className="drift-failure" data-testid="drift-failure">
          {s.failure}
        </p>
      ) : null}
      {error ? <p role="alert">{describeError(error)}</p> : null}
      <RecordTable
        label="Drift findings"
        columns={['Seen', 'Kind', 'Difference']}
        records={s?.findings}
        error={status.error}
        what="the drift status"
        empty="No differences"
        row={(f) => (
          <tr key={f.id}>
            <td className="num">{formatIstTime(f.firstSeenAt)}</td>
            <td>{KIND_LABEL[f.kind]}</td>
            <td>{f.message}</td>
            <RowActions>
              <button type="button" disabled={ack.isPending} onClick={() => ack.mutate(f.id)}>
                Acknowledge
              </button>
            </RowActions>
          </tr>
        )}
      />
      <div className="drift-actions">
        <button type="button" disabled={check.isPending || s?.checking} onClick={() => check.mutate()}>
          {check.isPending ? 'Checking…' : 'Check now'}
        </button>
      </div>
    </Dialog>
  );
}
