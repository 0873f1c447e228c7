import { getBridge } from './lib/bridge';
import { sendFirstSync } from './features/orders/first-sync';

// The page's first steps, a script of their own ahead of the desk's (index.html): the browser
// host's socket opens and the main window's first `orders.sync` leaves while the desk's code is
// still being fetched, so main answers it meanwhile, not after that code has run and rendered
// (docs/live-data.md §The first screen first). Nothing here imports zod or React: this script runs
// as soon as its few kilobytes are here.
getBridge();
if (new URLSearchParams(window.location.search).get('window') === null) sendFirstSync();
