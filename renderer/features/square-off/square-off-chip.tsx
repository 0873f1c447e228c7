import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Exchange } from '@shared/domain/instrument';
import { SquareOffSettings } from '@shared/domain/square-off';
import { describeError } from '../../lib/describe-error';
import { FieldError } from '../layout/field';
import { SaveButtons } from '../layout/save-buttons';
import { useSettingsForm, type FieldOf, type FormReading } from '../layout/use-settings-form';
import { useNow } from '../../lib/use-now';
import { Dialog } from '../layout/dialog';
import { squareOffQueries, useAnswerSquareOff, useSetSquareOff, useSquareOffEvents } from './queries';
import { squareOffChipText } from './square-off-text';
import './square-off.css';

/**
 * The header's square-off (docs/desk.md §Square-off): the countdown to the time, the warning,
 * and once over how it went; it opens the settings, and asks when main started after the time
 * with intraday positions still open.
 */
export function SquareOffChip() {
  useSquareOffEvents();
  const state = useQuery(squareOffQueries.state());
  const now = useNow();
  const [editing, setEditing] = useState(false);
  const s = state.data;
  if (!s) return null;
  const { text, tone } = squareOffChipText(s, now + s.marketLeadMs);
  return (
    <>
      <button
        type="button"
        className={`risk-chip square-off-chip square-off-chip--${tone}`}
        data-testid="square-off-chip"
        title={s.last && s.phase === 'done' ? s.last.detail : 'Square-off at a time: intraday (MIS) positions'}
        onClick={() => setEditing(true)}
      >
        {text}
      </button>
      {editing ? <SquareOffDialog initial={s.settings} onDone={() => setEditing(false)} /> : null}
      {s.phase === 'asking' ? <SquareOffQuestion /> : null}
    </>
  );
}

/** Asked at once when main started after the time with intraday positions still open. */
function SquareOffQuestion() {
  const answer = useAnswerSquareOff();
  return (
    <Dialog title="Square-off time has passed">
      <p>
        Tradedesk started after today’s square-off time and intraday (MIS) positions are still open. Square them off now
        (cancel their working orders and exit them), or keep them for today?
      </p>
      {answer.error ? (
        <p role="alert" className="inline-error">
          {describeError(answer.error)}
        </p>
      ) : null}
      <div className="form__buttons">
        <button type="button" className="primary" disabled={answer.isPending} onClick={() => answer.mutate(true)}>
          Square off now
        </button>
        <button type="button" disabled={answer.isPending} onClick={() => answer.mutate(false)}>
          Keep them today
        </button>
      </div>
    </Dialog>
  );
}

/** The settings: on or off, and the time per exchange (IST, before its close). */
function SquareOffDialog(props: { readonly initial: SquareOffSettings; readonly onDone: () => void }) {
  const save = useSetSquareOff();
  const { draft, setDraft, errors, setErrors, onSubmit, buttons } = useSettingsForm(
    props,
    readSquareOff,
    save,
    exchangeOfField,
  );
  const id = useId();
  return (
    <Dialog title="Square-off at a time" onClose={props.onDone}>
      <form onSubmit={onSubmit} aria-label="Square-off at a time">
        <p className="muted small">
          At each exchange’s time Tradedesk cancels its working intraday (MIS) orders and exits its intraday positions,
          as the kill switch does, warning two minutes before. It runs with the window hidden, not on holidays, and on a
          special session as long before its close.
        </p>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
          />
          Square off intraday positions at a time
        </label>
        <div className="square-off-form">
          {Exchange.options.map((ex) => (
            <label key={ex}>
              <span>{ex}</span>
              <input
                type="text"
                inputMode="numeric"
                aria-label={`${ex} time`}
                value={draft.times[ex]}
                aria-invalid={errors[ex] ? true : undefined}
                aria-describedby={errors[ex] ? `${id}-${ex}-error` : undefined}
                onChange={(e) => {
                  const value = e.target.value;
                  setDraft((d) => ({ ...d, times: { ...d.times, [ex]: value } }));
                  setErrors((x) => ({ ...x, [ex]: undefined }));
                }}
              />
              <FieldError id={`${id}-${ex}-error`} error={errors[ex]} />
            </label>
          ))}
        </div>
        <SaveButtons save={buttons} label="Save" onCancel={props.onDone} />
      </form>
    </Dialog>
  );
}

/** The settings the dialog's fields stand for, or the error of each exchange's time. */
function readSquareOff(draft: SquareOffSettings): FormReading<SquareOffSettings, Exchange> {
  const parsed = SquareOffSettings.safeParse(draft);
  if (parsed.success) return { value: parsed.data };
  const errors: Partial<Record<Exchange, string>> = {};
  for (const issue of parsed.error.issues) {
    const ex = Exchange.safeParse(issue.path[1]);
    if (ex.success) errors[ex.data] = issue.message;
  }
  return { errors };
}

/** The exchange whose time a field main refused names (`settings.times.NSE`), or null. */
const exchangeOfField: FieldOf<Exchange> = (path) =>
  path[0] === 'settings' && path[1] === 'times' ? (Exchange.safeParse(path[2]).data ?? null) : null;
