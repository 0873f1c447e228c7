import { Worker } from 'node:worker_threads';
import { JournalError, startPaperBroker, type PaperBrokerOptions } from '../paper';

/** What the app needs of its embedded paper broker: where it serves, and how to stop it. */
export interface EmbeddedPaper {
  readonly url: string;
  /** The control interface's secret (`X-Paper-Control`); null without `control`. */
  readonly controlSecret: string | null;
  close(): Promise<void>;
}

type WorkerReply =
  | { readonly type: 'ready'; readonly url: string; readonly controlSecret: string | null }
  | { readonly type: 'failed'; readonly journal: boolean; readonly message: string }
  | { readonly type: 'closed' };

/**
 * Starts the embedded paper broker: in a worker thread when `workerFile` (the bundled
 * out/paper-worker.mjs) is given, so its fsyncs and matching do not hold up the loop that
 * serves the bridge (docs/paper-broker.md §The embedded paper broker off the main loop); in
 * this thread otherwise (tests, which run the sources).
 *
 * A journal the broker will not start on is a `JournalError` either way (the host and the
 * Electron shell tell the user how to repair it). A worker that cannot be started at all (a
 * packaging without the file) falls back to this thread, saying so through `log`.
 */
export async function startEmbeddedPaper(
  options: PaperBrokerOptions,
  workerFile: string | undefined,
  log: (message: string) => void,
): Promise<EmbeddedPaper> {
  if (!workerFile) return startPaperBroker(options);
  const worker = new Worker(workerFile, { workerData: options });
  const first = await new Promise<WorkerReply | Error>((resolve) => {
    worker.once('message', (m: WorkerReply) => resolve(m));
    worker.once('error', (e) => resolve(e));
    worker.once('exit', (code) => resolve(new Error(`the paper broker's worker exited (${code}) before it served`)));
  });
  if (first instanceof Error || first.type !== 'ready') {
    await worker.terminate();
    if (!(first instanceof Error) && first.type === 'failed') {
      if (first.journal) throw new JournalError(first.message);
      throw new Error(first.message);
    }
    log(`The paper broker runs on the main thread: its worker did not start (${String(first)})`);
    return startPaperBroker(options);
  }
  worker.on('error', (e) => log(`The paper broker's worker failed: ${e.message}`));
  let closing: Promise<void> | null = null;
  return {
    url: first.url,
    controlSecret: first.controlSecret,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => {
          worker.on('message', (m: WorkerReply) => m.type === 'closed' && resolve());
          worker.once('exit', () => resolve());
        });
        worker.postMessage({ type: 'close' });
        await closed;
        await worker.terminate();
      })()),
  };
}
