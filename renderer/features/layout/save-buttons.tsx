import { describeError } from '../../lib/describe-error';

/**
 * A settings form's foot: why the last save failed (if it did), then Save and Cancel. Save is
 * disabled while the save is on its way, so one click makes one save.
 */
export function SaveButtons(props: {
  readonly save: { readonly isPending: boolean; readonly error: unknown };
  readonly label: string;
  readonly onCancel: () => void;
}) {
  const { save } = props;
  return (
    <>
      {save.error ? (
        <p role="alert" className="inline-error">
          Not saved: {describeError(save.error)}
        </p>
      ) : null}
      <div className="form__buttons">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : props.label}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
