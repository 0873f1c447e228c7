import { useId, type ReactNode } from 'react';

/** The props a field hands its control: the label's target and, with an error, the error's id. */
export interface FieldControlProps {
  readonly id: string;
  readonly 'aria-invalid'?: boolean;
  readonly 'aria-describedby'?: string;
}

/**
 * A labelled control with its error right under it, tied to it for screen readers. The order
 * ticket and the modify dialog use it, so a rule's message sits in the same place in both.
 */
export function Field(props: {
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
  readonly children: (p: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <span className="field__label">
        <label htmlFor={id}>{props.label}</label>
        {props.hint ? <span className="muted small"> · {props.hint}</span> : null}
      </span>
      {props.children({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': props.error ? errorId : undefined,
      })}
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}

/** A field's error right under its control, with the id the control's `aria-describedby` names; nothing without one. */
export function FieldError({ id, error }: { readonly id: string; readonly error?: string | undefined }) {
  return error ? (
    <span className="field-error" id={id}>
      {error}
    </span>
  ) : null;
}

/**
 * A settings row's figure in a dialog's grid (risk limits, MTM levels): its label and its text box,
 * tied to the `FieldError` under it (id `${id}-error`) for screen readers.
 */
export function FigureInput(props: {
  readonly id: string;
  readonly label: string;
  readonly placeholder: string;
  readonly value: string;
  readonly error: string | undefined;
  readonly onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        inputMode="decimal"
        placeholder={props.placeholder}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </>
  );
}
