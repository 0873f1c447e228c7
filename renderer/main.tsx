import { App } from './app';
import { getBridge } from './lib/bridge';
import { createQueryClient } from './lib/query-client';
import { orderQueries } from './features/orders/queries';
import { IS_MAIN_WINDOW } from './features/workstation/this-window';
import { lazyPage } from './features/workstation/lazy-page';
import { mountDesk } from './mount-desk';
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

/**
 * The longest the main window's first render waits for its first book. The book's reply is most
 * often here already, queued behind the desk's code; when main is slow the desk's frame is drawn
 * after this and the rows when they come, so a frame drawn empty costs a trader no more than this.
 */
const FIRST_BOOK_WAIT_MS = 200;

const client = createQueryClient();
// The book's first fetch starts before React's first render: it takes the first `orders.sync` the
// page sent as it started, and the first render waits for it (`mountDesk`).
const firstBook = IS_MAIN_WINDOW ? client.prefetchQuery(orderQueries.list()) : null;
// For DevTools' timings and the dashboard bench's parts of a first paint (docs/benchmarks.md
// §`dashboard`): the app's code has run.
performance.mark('desk:code-run');

const bound = new Promise<void>((resolve) => setTimeout(resolve, FIRST_BOOK_WAIT_MS));
void mountDesk(root, <Page />, client, { firstBook, bound });
