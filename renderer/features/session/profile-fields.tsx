import { useId } from 'react';
import type { ProfileField } from '@shared/domain/broker-descriptor';
import type { ProfileValues } from './profile-form';

/**
 * A broker kind's profile fields, drawn from its descriptor (docs/brokers.md §The broker
 * registry): a secret is masked and never autocompleted, a URL is a URL box, a flag a check
 * box; each shows its help and its error under it.
 */
export function ProfileFields(props: {
  readonly fields: readonly ProfileField[];
  readonly values: ProfileValues;
  readonly errors: Readonly<Record<string, string>>;
  readonly onChange: (name: string, value: string | boolean) => void;
}) {
  return (
    <>
      {props.fields.map((f) => (
        <OneField
          key={f.name}
          field={f}
          value={props.values[f.name]}
          error={props.errors[f.name]}
          onChange={(v) => props.onChange(f.name, v)}
        />
      ))}
    </>
  );
}

function OneField(props: {
  readonly field: ProfileField;
  readonly value: string | boolean | undefined;
  readonly error: string | undefined;
  readonly onChange: (value: string | boolean) => void;
}) {
  const id = useId();
  const f = props.field;
  const describedBy = [props.error ? `${id}-error` : null, f.help ? `${id}-help` : null].filter(Boolean).join(' ');
  const common = {
    'aria-invalid': props.error !== undefined || undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
  };
  const help = f.help ? (
    <span className="muted" id={`${id}-help`}>
      {f.help}
    </span>
  ) : null;
  const error = props.error ? (
    <span className="field-error" id={`${id}-error`}>
      {props.error}
    </span>
  ) : null;
  if (f.kind === 'flag')
    return (
      <>
        <label className="check">
          <input
            type="checkbox"
            {...common}
            checked={props.value === true}
            onChange={(e) => props.onChange(e.target.checked)}
          />
          {f.label}
        </label>
        {help}
        {error}
      </>
    );
  const text = typeof props.value === 'string' ? props.value : '';
  return (
    <>
      <label>
        {f.label}
        <input
          {...common}
          type={f.kind === 'secret' ? 'password' : f.kind === 'url' ? 'url' : 'text'}
          inputMode={f.kind === 'number' ? 'decimal' : undefined}
          required={f.required}
          autoComplete="off"
          placeholder={f.placeholder}
          value={text}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </label>
      {help}
      {error}
    </>
  );
}
