import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { getBridge } from './lib/bridge';
import { createQueryClient } from './lib/query-client';
import './styles/global.css';

// The browser host's socket opens now, so its handshake overlaps React's first render instead of
// following it: the first calls go out the moment the desk asks (docs/live-data.md §The first
// screen first).
getBridge();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
