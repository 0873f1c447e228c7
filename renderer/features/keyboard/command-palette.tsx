import { instrumentLabel } from '@shared/domain/instrument-label';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useInstruments } from '../instruments/queries';
import { Dialog } from '../layout/dialog';
import { useTicketActions } from '../ticket/ticket-store';
import { useOverlay, useOverlayActions } from './overlay-store';
import { paletteEntries, type PaletteEntry } from './palette-model';
import { usePaletteActions } from './use-palette-actions';
import './keyboard.css';

/**
 * The command palette (Ctrl+K): type to find any instrument or action, ↑/↓ to choose, Enter
 * to run, Esc to close (docs/desk.md §Command palette). An instrument becomes the selected one
 * (the chart, the depth and F1/F2 follow it); "buy …" / "sell …" opens its ticket instead.
 * Stays mounted while closed, so what an action started (an export) still reports back.
 */
export function CommandPalette() {
  const shown = useOverlay() === 'palette';
  const actions = usePaletteActions();
  return shown ? <PaletteDialog actions={actions} /> : null;
}

function PaletteDialog({ actions }: { readonly actions: ReturnType<typeof usePaletteActions> }) {
  const id = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const { list } = useInstruments();
  const { instrumentSelected, ticketOpened } = useTicketActions();
  const { overlayClosed } = useOverlayActions();
  const entries = useMemo(() => paletteEntries(text, actions, list), [text, actions, list]);
  const current = Math.min(active, Math.max(0, entries.length - 1));

  const run = (entry: PaletteEntry | undefined): void => {
    if (!entry) return;
    overlayClosed();
    // After the dialog has closed and handed the focus back, so an action may move it.
    setTimeout(() => {
      if (entry.kind === 'action') entry.action.run();
      else if (entry.side) ticketOpened(entry.side, entry.instrument);
      else instrumentSelected(entry.instrument.instrumentToken);
    }, 0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(Math.min(entries.length - 1, Math.max(0, current + step)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run(entries[current]);
    }
  };
  const optionId = (n: number): string => `${id}-option-${n}`;

  return (
    <Dialog title="Command palette" onClose={overlayClosed}>
      <div className="palette">
        <input
          className="palette__input"
          data-autofocus
          role="combobox"
          aria-label="Find an instrument or an action"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-activedescendant={entries.length ? optionId(current) : undefined}
          aria-autocomplete="list"
          placeholder="Symbol, name or action — “buy infy”, “export trades”…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={`${id}-list`} role="listbox" aria-label="Results" className="palette__list">
          {entries.length === 0 ? <li className="palette__empty">Nothing matches “{text}”</li> : null}
          {entries.map((entry, n) => (
            <li
              key={entry.key}
              id={optionId(n)}
              role="option"
              aria-selected={n === current}
              className="palette__item"
              onMouseMove={() => setActive(n)}
              onClick={() => run(entry)}
            >
              {entry.kind === 'action' ? (
                <>
                  <span className="palette__kind">Action</span>
                  <span>{entry.action.label}</span>
                  {entry.action.keys ? <kbd className="palette__hint">{entry.action.keys}</kbd> : null}
                </>
              ) : (
                <>
                  <span className="palette__kind">
                    {entry.side ? (entry.side === 'BUY' ? 'Buy' : 'Sell') : 'Instrument'}
                  </span>
                  <span className="sym" title={entry.instrument.tradingsymbol}>
                    {instrumentLabel(entry.instrument)}
                  </span>
                  <span className="muted small">
                    {entry.instrument.exchange} ·{' '}
                    {entry.instrument.expiry === null ? entry.instrument.name : entry.instrument.tradingsymbol}
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}
