import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brokerUrlProblem } from '@shared/domain/broker-url';
import { createAppServices } from '../app/app-services';
import { COMMAND_LINE_BROKERS, defaultUrlOf } from '../app/session/broker-registry';
import { createDispatcher } from '../app/dispatcher';
import { JournalError } from '../paper';
import { type MarketClockSpec, parseClockSpec } from '../paper/market-clock';
import { startHost } from './host-server';

/**
 * `npm run host -- --port P [--broker kite] [--broker-url URL] [--api-key K --api-secret S | --access-token T] [--data-dir DIR]
 * [--paper-control] [--paper-faults SPEC] [--paper-tick-ms N] [--paper-repair] [--renderer-dir DIR]
 * [--paper-clock ISO[,SPEED] | wall]`
 *
 * Runs the main-process services under plain Node and serves the renderer on 127.0.0.1:P
 * (0 = any free port). Prints one line `READY http://127.0.0.1:P/?key=SECRET` when ready.
 * `--paper-control` enables the embedded paper broker's control interface (tests, demos) and
 * prints its URL on a line `PAPER <url>` before READY. A damaged paper journal stops the start
 * with exit 2 and one message naming the file, the line and the way out (`--paper-repair`).
 * `--broker kite` says the URL speaks Kite Connect (docs/kite.md): the session starts with the
 * pasted `--access-token`, else the trader logs in through Kite's page from the session dialog,
 * which redirects to `http://127.0.0.1:PORT/kite/callback` (`--kite-redirect-port`, default 5174).
 * `--renderer-dir` serves another build of the renderer than the one beside this bundle (the
 * dashboard benchmark serves its own build, `out/bench/renderer`).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5199' },
    /** The dialect of --broker-url: `rest` (docs/api.md, default) or `kite` (docs/kite.md). */
    broker: { type: 'string', default: 'rest' },
    'broker-url': { type: 'string' },
    'api-key': { type: 'string' },
    'api-secret': { type: 'string' },
    'access-token': { type: 'string' },
    /** The port of Kite's loopback redirect, http://127.0.0.1:PORT/kite/callback (default 5174). */
    'kite-redirect-port': { type: 'string' },
    'data-dir': { type: 'string' },
    'paper-control': { type: 'boolean', default: false },
    'paper-faults': { type: 'string' },
    /** The paper market's tick period; 0 = prices move only through the control interface (tests). */
    'paper-tick-ms': { type: 'string' },
    /** Move a damaged paper journal's bad tail to a side file instead of refusing to start. */
    'paper-repair': { type: 'boolean', default: false },
    /** The built renderer to serve; default: `renderer/` beside this bundle. */
    'renderer-dir': { type: 'string' },
    /** The paper market's clock (docs/api.md §Sessions and the calendar): tests pin the hour with it. */
    'paper-clock': { type: 'string' },
  },
  strict: true,
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number (0-65535), got "${values.port}"`);
  process.exit(2);
}

const tickMs = values['paper-tick-ms'] === undefined ? undefined : Number(values['paper-tick-ms']);
if (tickMs !== undefined && (!Number.isInteger(tickMs) || tickMs < 0 || tickMs > 60_000)) {
  console.error(`--paper-tick-ms must be an integer in [0, 60000], got "${values['paper-tick-ms']}"`);
  process.exit(2);
}

let paperClock: MarketClockSpec | undefined;
try {
  paperClock = values['paper-clock'] === undefined ? undefined : parseClockSpec(values['paper-clock']);
} catch (e) {
  console.error(`--paper-clock ${e instanceof Error ? e.message : 'is invalid'}`);
  process.exit(2);
}

const brokerUrlError = values['broker-url'] === undefined ? null : brokerUrlProblem(values['broker-url']);
if (brokerUrlError) {
  console.error(`--broker-url: ${brokerUrlError}`);
  process.exit(2);
}

// The kinds the broker registry lets the command line name (docs/session.md §Starting on a broker).
const broker = values.broker;
if (!COMMAND_LINE_BROKERS.includes(broker)) {
  console.error(`--broker must be one of ${COMMAND_LINE_BROKERS.join(', ')}, got "${broker}"`);
  process.exit(2);
}
// Without a URL the desk starts on its embedded paper broker, which speaks the default kind only.
if (broker !== 'rest' && values['broker-url'] === undefined) {
  const root = defaultUrlOf(broker);
  console.error(
    `--broker ${broker} needs --broker-url (${root === undefined ? 'its API root' : root}, or the paper broker's dialect)`,
  );
  process.exit(2);
}

const kitePort = values['kite-redirect-port'] === undefined ? undefined : Number(values['kite-redirect-port']);
if (kitePort !== undefined && (!Number.isInteger(kitePort) || kitePort < 0 || kitePort > 65535)) {
  console.error(`--kite-redirect-port must be a port number (0-65535), got "${values['kite-redirect-port']}"`);
  process.exit(2);
}

const here = dirname(fileURLToPath(import.meta.url));
const paperWorker = join(here, 'paper-worker.mjs');
const services = await createAppServices({
  dataDir: values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'tradedesk-host-')),
  brokerUrl: values['broker-url'],
  apiKey: values['api-key'],
  apiSecret: values['api-secret'],
  broker,
  ...(values['access-token'] !== undefined ? { accessToken: values['access-token'] } : {}),
  ...(kitePort !== undefined ? { kiteRedirectPort: kitePort } : {}),
  paper: {
    control: values['paper-control'],
    faults: values['paper-faults'],
    repair: values['paper-repair'],
    ...(tickMs !== undefined ? { tickIntervalMs: tickMs } : {}),
    ...(paperClock !== undefined ? { marketClock: paperClock } : {}),
  },
  // Built beside this bundle: the embedded paper broker then runs off the bridge's event loop.
  ...(existsSync(paperWorker) ? { paperWorker } : {}),
}).catch((err: unknown) => {
  // A journal the paper broker will not start on is the user's to fix: say how, not where.
  if (err instanceof JournalError) {
    console.error(`Tradedesk cannot start: ${err.message}`);
    process.exit(2);
  }
  throw err;
});
const host = await startHost({
  port,
  rendererDir: values['renderer-dir'] === undefined ? join(here, 'renderer') : resolve(values['renderer-dir']),
  dispatch: createDispatcher(services.handlers),
  events: services.events,
  pages: {
    opened: (caller, window) => services.workstation.pageOpened(caller, window),
    closed: (caller) => services.workstation.pageClosed(caller),
  },
});

if (values['paper-control'] && services.paperUrl) console.log(`PAPER ${services.paperUrl}`);
console.log(`READY ${host.url}`);

const shutdown = (): void => {
  void Promise.allSettled([host.close(), services.close()]).then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
