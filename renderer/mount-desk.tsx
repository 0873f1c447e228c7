import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useLayoutEffect, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

function FirstRender(props: { readonly children: ReactNode }) {
  useLayoutEffect(() => {
    // For DevTools' timings and the dashboard bench's parts of a first paint (docs/benchmarks.md
    // §`dashboard`): React has committed its first render.
    performance.mark('desk:first-render');
  }, []);
  return props.children;
}

/** What the page's first render may wait for. */
export interface FirstRenderWait {
  /** The main window's first book (the order list's first fetch); null in a pop-out. */
  readonly firstBook: Promise<unknown> | null;
  /** Ends the wait even when the book has not come. */
  readonly bound: Promise<void>;
}

/**
 * Draws the desk into `element`: once its first book is here, or the wait's bound has passed
 * (a wait that fails ends too: the desk is drawn whatever its book does).
 *
 * The main window's first `orders.sync` left as the page started (`boot.ts`), and its reply is
 * most often on the page by the time the desk's code has run, waiting behind that long task. A
 * render begun at once draws the frame empty first and the rows in a second render after it;
 * taking the reply first draws both in one, one render and one layout sooner (docs/live-data.md
 * §The first screen first). Until then the window keeps index.html's opening words.
 */
export async function mountDesk(
  element: HTMLElement,
  page: ReactNode,
  client: QueryClient,
  wait: FirstRenderWait,
): Promise<Root> {
  if (wait.firstBook) await Promise.race([wait.firstBook, wait.bound]).catch(() => undefined);
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <FirstRender>{page}</FirstRender>
      </QueryClientProvider>
    </StrictMode>,
  );
  return root;
}
