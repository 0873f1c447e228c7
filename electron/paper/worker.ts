import { parentPort, workerData } from 'node:worker_threads';
import { JournalError, startPaperBroker, type PaperBrokerOptions } from './index';

/**
 * The embedded paper broker in a worker thread (bundled as out/paper-worker.mjs; started by
 * `electron/app/embedded-paper.ts`), so its journal's fsyncs and its matching run off the event
 * loop that serves the bridge (docs/paper-broker.md §The embedded paper broker off the main loop).
 *
 * Messages: out `{type:'ready', url, controlSecret}` once it serves, or `{type:'failed', journal, message}` if
 * it cannot start; in `{type:'close'}`, answered `{type:'closed'}` once its journal is closed.
 */
const port = parentPort;
if (!port) throw new Error('electron/paper/worker.ts runs only as a worker thread');

try {
  const broker = await startPaperBroker(workerData as PaperBrokerOptions);
  port.on('message', (m: { type?: string }) => {
    if (m.type !== 'close') return;
    void broker.close().finally(() => port.postMessage({ type: 'closed' }));
  });
  port.postMessage({ type: 'ready', url: broker.url, controlSecret: broker.controlSecret });
} catch (err) {
  port.postMessage({
    type: 'failed',
    journal: err instanceof JournalError,
    message: err instanceof Error ? err.message : String(err),
  });
}
