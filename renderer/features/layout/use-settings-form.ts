import { useState, type FormEvent } from 'react';

/** What a settings form's fields stand for: the value to save, or what is wrong with each field that is. */
export type FormReading<V, F extends string> =
  | { readonly value: V; readonly errors?: undefined }
  | { readonly value?: undefined; readonly errors: Partial<Record<F, string>> };

/**
 * A settings dialog's form (the risk limits, the MTM levels, the square-off times) from its props
 * (the stored settings as a draft, and what closes it): its draft, the errors of the last submit by
 * field, and a submit that saves what `read` makes of the draft and closes on success — or shows
 * each field's error and saves nothing. `SaveButtons` is its foot.
 */
export function useSettingsForm<D, V, F extends string>(
  props: { readonly initial: D; readonly onDone: () => void },
  read: (draft: D) => FormReading<V, F>,
  save: { readonly mutate: (value: V, options: { readonly onSuccess: () => void }) => void },
) {
  const [draft, setDraft] = useState(props.initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const { value, errors: wrong } = read(draft);
    if (wrong) {
      setErrors(wrong);
      return;
    }
    if (value !== undefined) save.mutate(value, { onSuccess: props.onDone });
  };
  return { draft, setDraft, errors, setErrors, onSubmit };
}
