import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokerUrlProblem } from '@shared/domain/broker-url';
import { createAppServices } from '../app/app-services';
import { BROKERS, COMMAND_LINE_BROKERS } from '../app/session/broker-registry';
import { createDispatcher } from '../app/dispatcher';
import { JournalError } from '../paper';
import { type MarketClockSpec, parseClockSpec } from '../paper/market-clock';
import { userDataDir } from '../app/user-data-dir';
import { commandLineOrExit, readCommandLine } from '../wire/cli-args';
import { ACCESS_TOKEN, API_SECRET, readSecret, refusedFlagMessage, SecretInputError } from '../wire/secret-input';
import { startHost } from './host-server';

/**
 * The browser host: runs the main-process services under plain Node and serves the renderer on
 * 127.0.0.1:P. Prints one line `READY http://127.0.0.1:P/?key=SECRET (data: DIR)` when ready.
 * `--paper-control` also prints the paper broker's control URL and secret on a line
 * `PAPER <url> control=<secret>` before READY (control requests send the secret in
 * `X-Paper-Control`, docs/api.md §Control interface). A damaged paper journal stops the start with exit 2 and one message naming the file,
 * the line and the way out (`--paper-repair`). `--broker kite`: docs/kite.md. `--renderer-dir`
 * serves another build of the renderer (the dashboard benchmark serves `out/bench/renderer`).
 */
const USAGE = `Usage: npm run host -- [options]

Serves the desk to a browser on 127.0.0.1 and prints READY <url> (data: <folder>) once ready.

  --port P                      port on 127.0.0.1 (default 5199; 0 = any free port)
  --data-dir DIR                where the desk keeps its data (default: the per-user folder the
                                Electron app uses, ${userDataDir(process.platform, process.env, homedir())})
  --broker ${COMMAND_LINE_BROKERS.join('|').padEnd(20)}the dialect of --broker-url (default rest)
  --broker-url URL              a REST broker (docs/api.md) or Kite Connect (docs/kite.md)
  --api-key K                   the broker app's key; its secret from TRADEDESK_API_SECRET or
  --api-secret-file PATH|-      a file of mode 0600 (- = stdin); never an argument (ps shows those)
  --access-token-file PATH|-    start a Kite session with a pasted access token (or TRADEDESK_ACCESS_TOKEN)
  --kite-redirect-port P        the port of Kite's login redirect (default 5174)
  --paper-control               enable the embedded paper broker's control interface; prints PAPER <url> control=<secret>
  --paper-faults SPEC           inject faults into the paper broker (docs/api.md §Faults)
  --paper-tick-ms N             the paper market's tick period; 0 = prices move only through control
  --paper-repair                move a damaged paper journal's bad tail aside and start
  --paper-clock ISO[,SPEED]|wall  the paper market's clock
  --renderer-dir DIR            serve another build of the renderer
  -h, --help                    this text`;

const { values } = commandLineOrExit(
  readCommandLine(
    'host',
    USAGE,
    {
      port: { type: 'string', default: '5199' },
      broker: { type: 'string', default: 'rest' },
      'broker-url': { type: 'string' },
      'api-key': { type: 'string' },
      // Refused with a message naming the replacement (README.md §Secrets on the command line).
      'api-secret': { type: 'string' },
      'access-token': { type: 'string' },
      'api-secret-file': { type: 'string' },
      'access-token-file': { type: 'string' },
      'kite-redirect-port': { type: 'string' },
      'data-dir': { type: 'string' },
      'paper-control': { type: 'boolean', default: false },
      'paper-faults': { type: 'string' },
      'paper-tick-ms': { type: 'string' },
      'paper-repair': { type: 'boolean', default: false },
      'renderer-dir': { type: 'string' },
      'paper-clock': { type: 'string' },
    },
    process.argv.slice(2),
  ),
);

for (const [spec, given] of [
  [API_SECRET, values['api-secret']],
  [ACCESS_TOKEN, values['access-token']],
] as const) {
  if (given !== undefined) {
    console.error(refusedFlagMessage(spec));
    process.exit(2);
  }
}
const secretSources = { env: process.env, stdin: process.stdin, platform: process.platform };
let apiSecret: string | undefined;
let accessToken: string | undefined;
try {
  if (values['api-secret-file'] === '-' && values['access-token-file'] === '-')
    throw new SecretInputError('--api-secret-file and --access-token-file cannot both read stdin');
  apiSecret = await readSecret(API_SECRET, { ...secretSources, file: values['api-secret-file'] });
  accessToken = await readSecret(ACCESS_TOKEN, { ...secretSources, file: values['access-token-file'] });
} catch (e) {
  if (!(e instanceof SecretInputError)) throw e;
  console.error(e.message);
  process.exit(2);
}

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
const brokerProblem = BROKERS.commandLineProblem(broker, values['broker-url']);
if (brokerProblem) {
  console.error(brokerProblem);
  process.exit(2);
}

const kitePort = values['kite-redirect-port'] === undefined ? undefined : Number(values['kite-redirect-port']);
if (kitePort !== undefined && (!Number.isInteger(kitePort) || kitePort < 0 || kitePort > 65535)) {
  console.error(`--kite-redirect-port must be a port number (0-65535), got "${values['kite-redirect-port']}"`);
  process.exit(2);
}

const here = dirname(fileURLToPath(import.meta.url));
const paperWorker = join(here, 'paper-worker.mjs');
// The same folder as the Electron app's, so the paper account, the journal, workspaces and risk
// limits outlive a restart (docs/architecture.md §Data folder).
const dataDir = resolve(values['data-dir'] ?? userDataDir(process.platform, process.env, homedir()));
const services = await createAppServices({
  dataDir,
  brokerUrl: values['broker-url'],
  apiKey: values['api-key'],
  apiSecret,
  broker,
  ...(accessToken !== undefined ? { accessToken } : {}),
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

if (values['paper-control'] && services.paperUrl)
  console.log(`PAPER ${services.paperUrl} control=${services.paperControlSecret ?? ''}`);
console.log(`READY ${host.url} (data: ${dataDir})`);

const shutdown = (): void => {
  void Promise.allSettled([host.close(), services.close()]).then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
