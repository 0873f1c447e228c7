import { useState, type FormEvent } from 'react';
import { AppError } from '@shared/ipc/app-error';

/** What a settings form's fields stand for: the value to save, or what is wrong with each field that is. */
export type FormReading<V, F extends string> =
  | { readonly value: V; readonly errors?: undefined }
  | { readonly value?: undefined; readonly errors: Partial<Record<F, string>> };

/**
 * The form field a request field main refused stands for (`path`: main's field name split at its
 * dots, e.g. `settings.times.NSE` → `['settings', 'times', 'NSE']`), or null for none.
 */
export type FieldOf<F extends string> = (path: readonly string[]) => F | null;

/**
 * Main's refusal of a save by the form's fields: each field it names (docs/contract.md, a
 * `bad_request` names its field) with its message, or null when it names none or one the form has
 * no field for — then it is shown whole, above the buttons.
 */
export function refusalByField<F extends string>(
  error: unknown,
  fieldOf: FieldOf<F>,
): Partial<Record<F, string>> | null {
  if (!(error instanceof AppError) || error.info.kind !== 'bad_request') return null;
  const { field, fields, message } = error.info;
  const named = fields ?? (field ? [{ field, message }] : []);
  const out: Partial<Record<F, string>> = {};
  for (const n of named) {
    const f = fieldOf(n.field.split('.'));
    if (f === null) return null;
    out[f] ??= n.message;
  }
  return named.length > 0 ? out : null;
}

/**
 * A settings dialog's form (the risk limits, the MTM levels, the square-off times) from its props
 * (the stored settings as a draft, and what closes it): its draft, the errors by field — of the
 * last submit, or of main's refusal of the save where it names fields of the form (`fieldOf`) —
 * and a submit that saves what `read` makes of the draft and closes on success, or shows each
 * field's error and saves nothing. `SaveButtons` is its foot, given `buttons`: main's refusal
 * shows there only when it is not on a field.
 */
export function useSettingsForm<D, V, F extends string>(
  props: { readonly initial: D; readonly onDone: () => void },
  read: (draft: D) => FormReading<V, F>,
  save: {
    readonly mutate: (
      value: V,
      options: { readonly onSuccess: () => void; readonly onError: (error: unknown) => void },
    ) => void;
    readonly isPending: boolean;
    readonly error: unknown;
  },
  fieldOf: FieldOf<F>,
) {
  const [draft, setDraft] = useState(props.initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [placed, setPlaced] = useState<unknown>(null);
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const { value, errors: wrong } = read(draft);
    if (wrong) {
      setErrors(wrong);
      return;
    }
    if (value === undefined) return;
    save.mutate(value, {
      onSuccess: props.onDone,
      onError: (error) => {
        const byField = refusalByField(error, fieldOf);
        if (!byField) return;
        setErrors(byField);
        setPlaced(error);
      },
    });
  };
  const buttons = { isPending: save.isPending, error: save.error === placed ? null : save.error };
  return { draft, setDraft, errors, setErrors, onSubmit, buttons };
}
