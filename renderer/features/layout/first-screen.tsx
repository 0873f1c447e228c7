import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { Panel } from './panel';
import { PanelPlaceholder } from './panel-states';

/** The longest the rest of the desk waits for the first screen's frame (a page opened hidden paints none). */
const HIDDEN_PAGE_WAIT_MS = 500;

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
  useEffect(() => {
    // After the frame that paints this commit: a timer queued from its animation frame runs once it
    // painted. A page that is not shown gets no animation frames, so a plain timer bounds the wait.
    const draw = () => startTransition(() => setRest(true));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(draw, 0);
    });
    const bound = setTimeout(draw, HIDDEN_PAGE_WAIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(bound);
    };
  }, []);
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
