import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
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

// A pop-out draws only the panels the desk puts in its window (docs/workstation.md §Pages): its
// page is its own chunk, asked for now beside the bridge. The main window's page stays in the
// entry, so its first screen is not one chunk further away.
const Page = IS_MAIN_WINDOW ? App : lazyPage(import('./popout-app').then((m) => m.PopoutApp));

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <Page />
    </QueryClientProvider>
  </StrictMode>,
);
