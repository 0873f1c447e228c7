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
      {props.error ? (
        <span className="field-error" id={errorId}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
