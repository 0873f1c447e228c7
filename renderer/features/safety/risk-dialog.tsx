import { useQuery } from '@tanstack/react-query';
import type { RiskLimitName } from '@shared/domain/risk';
import { describeError } from '../../lib/describe-error';
import { FieldError, FigureInput } from '../layout/field';
import { SaveButtons } from '../layout/save-buttons';
import { useSettingsForm } from '../layout/use-settings-form';
import { Dialog } from '../layout/dialog';
import { safetyQueries, useSetRiskLimits } from './queries';
import { draftOf, LIMIT_ROWS, limitOfField, limitsOf, type RiskDraft } from './risk-form';
import { useSafetyActions } from './safety-store';

/**
 * The risk limits dialog (docs/contract.md §Risk guard): one row per limit — a figure (empty: off)
 * and Hard (refused outright) or soft (the trader may place that order anyway). Main stores the
 * limits for the logged-in profile and enforces them; this only edits them.
 */
export function RiskDialog() {
  const state = useQuery(safetyQueries.risk());
  const { riskDialogClosed } = useSafetyActions();
  return (
    <Dialog title="Risk limits" onClose={riskDialogClosed} wide>
      {state.data?.status.priceChecksOff ? (
        <p className="inline-warning" role="note">
          {state.data.status.priceChecksOff}.
        </p>
      ) : null}
      {state.data ? (
        <RiskForm initial={draftOf(state.data.limits)} onDone={riskDialogClosed} />
      ) : (
        <p className="muted">{state.error ? describeError(state.error) : 'Loading your limits…'}</p>
      )}
    </Dialog>
  );
}

function RiskForm(props: { readonly initial: RiskDraft; readonly onDone: () => void }) {
  const save = useSetRiskLimits();
  const { draft, setDraft, errors, setErrors, onSubmit, buttons } = useSettingsForm(
    props,
    limitsOf,
    save,
    limitOfField,
  );
  const change = (name: RiskLimitName, patch: Partial<RiskDraft[RiskLimitName]>): void => {
    setDraft((d) => ({ ...d, [name]: { ...d[name], ...patch } }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };
  return (
    <form onSubmit={onSubmit} aria-label="Risk limits">
      <p className="muted small">
        Checked by Tradedesk before an order is sent. Leave a figure empty for no limit. A hard limit refuses the order;
        a soft one shows the figures and lets you place that order anyway. Exits are never blocked by the daily loss
        limit.
      </p>
      <div className="risk-form">
        {LIMIT_ROWS.map(({ name, label, unit }) => (
          <RiskRow
            key={name}
            label={label}
            unit={unit}
            value={draft[name].value}
            hard={draft[name].hard}
            error={errors[name]}
            onValue={(value) => change(name, { value })}
            onHard={(hard) => change(name, { hard })}
          />
        ))}
      </div>
      <SaveButtons save={buttons} label="Save limits" onCancel={props.onDone} />
    </form>
  );
}

function RiskRow(props: {
  readonly label: string;
  readonly unit: string;
  readonly value: string;
  readonly hard: boolean;
  readonly error: string | undefined;
  readonly onValue: (v: string) => void;
  readonly onHard: (h: boolean) => void;
}) {
  const id = `risk-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <>
      <FigureInput
        id={id}
        label={props.label}
        placeholder="No limit"
        value={props.value}
        error={props.error}
        onChange={props.onValue}
      />
      <span className="muted small">{props.unit}</span>
      <label className="check small">
        <input type="checkbox" checked={props.hard} onChange={(e) => props.onHard(e.target.checked)} />
        Hard
        <span className="sr-only"> limit: {props.label}</span>
      </label>
      <FieldError id={`${id}-error`} error={props.error} />
    </>
  );
}
