import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../lib/describe-error';
import { FieldError, FigureInput } from '../layout/field';
import { SaveButtons } from '../layout/save-buttons';
import { useSettingsForm } from '../layout/use-settings-form';
import { Dialog } from '../layout/dialog';
import { mtmDraftOf, mtmFieldOf, mtmSettingsOf, type AmountDraft, type MtmDraft, type MtmField } from './mtm-form';
import { mtmQueries, useSetMtm } from './queries';

/**
 * The MTM stop and target dialog (docs/desk.md §MTM stop and target): a loss and a gain at which
 * main flattens the account (kill switch: cancel all, exit all), in ₹ or % of the day's opening
 * funds, an optional lock-in, and hard (at once) or soft (asks, then runs after a countdown).
 */
export function MtmDialog(props: { readonly onClose: () => void }) {
  const state = useQuery(mtmQueries.state());
  return (
    <Dialog title="MTM stop and target" onClose={props.onClose} wide>
      {state.data ? (
        <MtmForm initial={mtmDraftOf(state.data.settings)} onDone={props.onClose} />
      ) : (
        <p className="muted">{state.error ? describeError(state.error) : 'Loading your levels…'}</p>
      )}
    </Dialog>
  );
}

const ROWS: readonly { readonly field: Exclude<MtmField, 'hard' | 'countdownS'>; readonly label: string }[] = [
  { field: 'stop', label: 'Stop: flatten at a loss of' },
  { field: 'target', label: 'Target: flatten at a gain of' },
  { field: 'trailFrom', label: 'Lock-in: once up by' },
  { field: 'trailLock', label: '…never give back below a gain of' },
];

function MtmForm(props: { readonly initial: MtmDraft; readonly onDone: () => void }) {
  const save = useSetMtm();
  const { draft, setDraft, errors, setErrors, onSubmit, buttons } = useSettingsForm(
    props,
    mtmSettingsOf,
    save,
    mtmFieldOf,
  );
  const change = (patch: Partial<MtmDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
  };
  return (
    <form onSubmit={onSubmit} aria-label="MTM stop and target">
      <p className="muted small">
        Tradedesk measures the day&apos;s MTM (realised + unrealised) on every tick. When a level is hit it runs the
        kill switch: every order cancelled, every position exited. Leave a figure empty for no level. While positions
        are not known the MTM is unknown and nothing is judged.
      </p>
      <div className="risk-form">
        {ROWS.map(({ field, label }) => (
          <AmountRow
            key={field}
            field={field}
            label={label}
            amount={draft[field]}
            error={errors[field]}
            onChange={(a) => change({ [field]: a })}
          />
        ))}
        <label htmlFor="mtm-countdown">Soft: ask first, run after</label>
        <input
          id="mtm-countdown"
          type="text"
          inputMode="numeric"
          value={draft.countdownS}
          disabled={draft.hard}
          aria-invalid={errors.countdownS ? true : undefined}
          aria-describedby={errors.countdownS ? 'mtm-countdown-error' : undefined}
          onChange={(e) => change({ countdownS: e.target.value })}
        />
        <span className="muted small">seconds</span>
        <label className="check small">
          <input type="checkbox" checked={draft.hard} onChange={(e) => change({ hard: e.target.checked })} />
          Hard (run at once)
        </label>
        <FieldError id="mtm-countdown-error" error={errors.countdownS} />
      </div>
      <SaveButtons save={buttons} label="Save levels" onCancel={props.onDone} />
    </form>
  );
}

function AmountRow(props: {
  readonly field: MtmField;
  readonly label: string;
  readonly amount: AmountDraft;
  readonly error: string | undefined;
  readonly onChange: (a: AmountDraft) => void;
}) {
  const id = `mtm-${props.field}`;
  return (
    <>
      <FigureInput
        id={id}
        label={props.label}
        placeholder="Off"
        value={props.amount.value}
        error={props.error}
        onChange={(value) => props.onChange({ ...props.amount, value })}
      />
      <select
        aria-label={`${props.label}: unit`}
        value={props.amount.unit}
        onChange={(e) => props.onChange({ ...props.amount, unit: e.target.value === 'percent' ? 'percent' : 'rupees' })}
      >
        <option value="rupees">₹</option>
        <option value="percent">% of opening funds</option>
      </select>
      <span />
      <FieldError id={`${id}-error`} error={props.error} />
    </>
  );
}
