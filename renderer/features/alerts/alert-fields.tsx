import type { AlertCondition, AlertNotify } from '@shared/domain/alert';
import { conditionsOf, conditionWords, type BasisKind } from './alert-form';

/** The conditions of a basis (above, below, crosses…): the new alert's and an edited one's. */
export function ConditionSelect(props: {
  readonly label: string;
  readonly basis: BasisKind;
  readonly value: AlertCondition;
  readonly onChange: (c: AlertCondition) => void;
}) {
  return (
    <ChoiceSelect
      label={props.label}
      value={props.value}
      options={conditionsOf(props.basis)}
      words={conditionWords}
      onChange={props.onChange}
    />
  );
}

/**
 * A select of fixed choices (a condition, the alert order's side, type and product), each shown
 * as `words` says (as written without it); what it hands on is always one of them.
 */
export function ChoiceSelect<T extends string>(props: {
  readonly label: string;
  readonly value: T;
  readonly options: readonly T[];
  readonly onChange: (v: T) => void;
  readonly words?: (v: T) => string;
}) {
  const { options, words } = props;
  return (
    <select
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(options.find((o) => o === e.target.value) ?? props.value)}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {words ? words(o) : o}
        </option>
      ))}
    </select>
  );
}

/**
 * The two switches of how an alert notifies (docs/contract.md §Alert notifications): the OS
 * notification (the desktop app shows it; the browser has none) and a tone in the page.
 */
export function NotifyFields(props: {
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
