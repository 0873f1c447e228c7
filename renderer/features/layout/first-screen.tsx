import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { afterNextPaint } from '../../lib/after-paint';
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
export function FirstScreenFirst(props: {
  readonly children: ReactNode;
  /** Told once, when the first screen has painted (the main window tells main: `firstScreenDrawn`). */
  readonly onDrawn?: () => void;
}) {
  const [rest, setRest] = useState(false);
  const { onDrawn } = props;
  // After the frame that paints this commit (or, for a page not shown, a bound on the wait).
  useEffect(
    () =>
      afterNextPaint(() => {
        startTransition(() => setRest(true));
        onDrawn?.();
      }),
    [onDrawn],
  );
  return <RestDrawn.Provider value={rest}>{props.children}</RestDrawn.Provider>;
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
