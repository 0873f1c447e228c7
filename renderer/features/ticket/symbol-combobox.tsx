import { useId, useMemo, useState, type KeyboardEvent, type Ref } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { searchInstruments } from './instrument-search';
import { instrumentLabel } from '@shared/domain/instrument-label';
import { FieldError } from '../layout/field';

/**
 * A searchable, keyboard-driven instrument picker (WAI-ARIA combobox with a listbox popup).
 *
 * Type to search symbol and name over the whole universe; ↑/↓ move, Enter picks, Esc closes
 * the list (and only the list: a second Esc reaches the ticket). Enter and Esc stop here while
 * the list is open so the ticket never submits or closes on a keystroke meant for the list.
 */
export function SymbolCombobox({
  inputRef,
  ...props
}: {
  readonly label: string;
  readonly instruments: readonly Instrument[];
  readonly value: Instrument | undefined;
  readonly onChoose: (i: Instrument) => void;
  readonly error?: string;
  readonly inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = useMemo(
    () => (open ? searchInstruments(props.instruments, text ?? '', 50) : []),
    [open, props.instruments, text],
  );
  const shown = text ?? (props.value ? `${props.value.tradingsymbol}` : '');

  const choose = (i: Instrument | undefined): void => {
    if (!i) return;
    props.onChoose(i);
    setText(null);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.min(a + 1, Math.max(0, matches.length - 1)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      e.stopPropagation();
      choose(matches[active]);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
      setText(null);
    }
  };

  return (
    <div className="combobox">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        ref={inputRef}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && matches[active] ? `${id}-opt-${active}` : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Search symbol or name"
        value={shown}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(e) => e.target.select()}
        onBlur={() => {
          setOpen(false);
          setText(null);
        }}
        onKeyDown={onKeyDown}
      />
      {props.value ? (
        <span className="combobox__meta muted">
          {props.value.exchange} · {props.value.instrumentType} · lot {props.value.lotSize} · tick{' '}
          {props.value.tickSize}
        </span>
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label={`${props.label} suggestions`}
        className="combobox__list"
        hidden={!open || matches.length === 0}
      >
        {matches.map((i, n) => (
          <li
            key={i.instrumentToken}
            id={`${id}-opt-${n}`}
            role="option"
            aria-selected={n === active}
            className={n === active ? 'is-active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(i);
            }}
            onMouseEnter={() => setActive(n)}
          >
            {/* A contract by its underlying, expiry and strike; its exchange code in the tooltip. */}
            <span className="sym" title={i.tradingsymbol}>
              {instrumentLabel(i)}
            </span>{' '}
            <span className="muted">{i.exchange}</span>{' '}
            <span className="muted small">{i.expiry === null ? i.name : i.tradingsymbol}</span>
          </li>
        ))}
      </ul>
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}
