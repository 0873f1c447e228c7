import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { getBridge } from './lib/bridge';
import { createQueryClient } from './lib/query-client';
import { orderQueries } from './features/orders/queries';
import { IS_MAIN_WINDOW } from './features/workstation/this-window';
import { lazyPage } from './features/workstation/lazy-page';
import './styles/global.css';

// The bridge is open already (the page's first script, boot.ts): its socket's handshake overlapped
// the fetching of this code (docs/live-data.md §The first screen first).
getBridge();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// A pop-out draws only the panels the desk puts in its window (docs/workstation.md §Pages): its
// page is its own chunk, asked for now beside the bridge. The main window's page stays in the
// entry, so its first screen is not one chunk further away.
const Page = IS_MAIN_WINDOW ? App : lazyPage(import('./popout-app').then((m) => m.PopoutApp));

const client = createQueryClient();
// The book's first fetch starts before React's first render: it takes the first `orders.sync` the
// page sent as it started, and when that reply is already here the first render draws the rows
// (docs/live-data.md §The first screen first).
if (IS_MAIN_WINDOW) void client.prefetchQuery(orderQueries.list());
// Marks for DevTools' timings and the dashboard bench's parts of a first paint (docs/benchmarks.md
// §`dashboard`): the app's code has run; React has committed its first render.
performance.mark('desk:code-run');

function FirstRender(props: { readonly children: ReactNode }) {
  useLayoutEffect(() => {
    performance.mark('desk:first-render');
  }, []);
  return props.children;
}

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <FirstRender>
        <Page />
      </FirstRender>
    </QueryClientProvider>
  </StrictMode>,
);
