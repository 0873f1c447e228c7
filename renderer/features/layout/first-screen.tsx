import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { afterNextPaint } from '../../lib/after-paint';
import { call } from '../../lib/ipc-client';
import { Panel } from './panel';
import { PanelPlaceholder } from './panel-states';

/** False until the first screen has painted; true outside `FirstScreenFirst` (a pop-out, a test). */
const RestDrawn = createContext(true);

/**
 * The main window's desk, its book first (docs/live-data.md §The first screen first): React's first
 * render draws the header, the blotter and every other panel's frame; the panels inside `Later` draw
 * once that frame has painted, in a transition, so their render (and their code's first compile)
 * yields to the book's reply and to input instead of holding the first paint of the rows.
 */
export function FirstScreenFirst({ children }: { readonly children: ReactNode }) {
  const [rest, setRest] = useState(false);
  // After the frame that paints this commit (or, for a page not shown, a bound on the wait). Main
  // is told too: its login work that waits for the first screen goes ahead (the drift check).
  useEffect(
    () =>
      afterNextPaint(() => {
        startTransition(() => setRest(true));
        call('desk.firstScreen').catch(() => undefined); // nothing to show: main's bound covers a lost one
      }),
    [],
  );
  return <RestDrawn.Provider value={rest}>{children}</RestDrawn.Provider>;
}

/** A panel drawn after the first screen: until then its frame says "Loading ticket…". */
export function Later(props: { readonly title: string; readonly what: string; readonly children: ReactNode }) {
  return useContext(RestDrawn) ? (
    props.children
  ) : (
    <Panel title={props.title}>
      <PanelPlaceholder what={props.what} error={null} />
    </Panel>
  );
}

/**
 * Whether the first screen has painted (always, outside `FirstScreenFirst`): what the first
 * screen does not show — the instrument universe — is asked for only then, so its reply is not
 * parsed and drawn ahead of the book's first rows (docs/live-data.md §The first screen first).
 */
export const useFirstScreenDrawn = (): boolean => useContext(RestDrawn);
