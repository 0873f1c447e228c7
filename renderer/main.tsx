import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { getBridge } from './lib/bridge';
import { createQueryClient } from './lib/query-client';
import { IS_MAIN_WINDOW } from './features/workstation/this-window';
import { lazyPage } from './features/workstation/lazy-page';
import './styles/global.css';

// The browser host's socket opens now, so its handshake overlaps React's first render instead of
// following it: the first calls go out the moment the desk asks (docs/live-data.md §The first
// screen first).
getBridge();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Each window's page is its own chunk, asked for now beside the bridge: a pop-out fetches and
// runs only its page and its own panels' code, never the main window's (docs/workstation.md §Windows).
// (Two functions, never one conditional expression: Vite's preload would give both imports the
// stylesheets of the second.)
const PAGES: Readonly<Record<'main' | 'popout', () => Promise<ComponentType>>> = {
  main: () => import('./app').then((m) => m.App),
  popout: () => import('./popout-app').then((m) => m.PopoutApp),
};
const Page = lazyPage(PAGES[IS_MAIN_WINDOW ? 'main' : 'popout']());

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <Page />
    </QueryClientProvider>
  </StrictMode>,
);
