import { commandLineOrExit, readCommandLine } from '../wire/cli-args';
import { MAX_ORDERBOOK_LAG_MS, startPaperBroker } from './index';
import { parseAllowedIps } from './kite/app-settings';
import { parseOrderLimits } from './kite/limits';
import { type MarketClockSpec, parseClockSpec } from './market-clock';

/**
 * `npm run paper -- --port P [--seed N] [--data-dir DIR] [--control] [--faults SPEC] [--rate R/s] [--no-idempotency] [--orderbook-lag-ms N] [--repair] [--clock ISO[,SPEED] | wall] [--kite-redirect-url URL] [--kite-order-limits 10/s,400/min,5000/day] [--kite-allowed-ips IP,IP | none] [--kite-plan connect | personal] [--upstox-allowed-ips IP,IP | none]`
 *
 * Prints exactly one line, `READY http://127.0.0.1:P/v1`, once it serves (scripts and tests
 * wait for it; with `--control` the line ends ` control=SECRET`, the secret every control request
 * sends in `X-Paper-Control`), and shuts down cleanly on SIGINT/SIGTERM so the journal is flushed. A damaged
 * journal stops the start (exit 2) with a message naming the file, the line and the way out;
 * `--repair` takes it, moving the damage aside (docs/api.md §Persistence). `--kite-redirect-url`
 * is where the Kite login page sends the browser with its request token (docs/kite.md §Login);
 * the other `--kite-*` flags set the rules of Kite's dialect (docs/kite.md §Limits, §The rules of 2026).
 * `--orderbook-lag-ms N` makes order reads (/v1 and /kite) show each new order and each change
 * to one only N real ms after it happened, as a real broker's order book trails its order
 * system; the POST reply, the streams and the duplicate check stay immediate (docs/api.md §A
 * lagging order book).
 */

function fail(message: string): never {
  console.error(`paper: ${message}`);
  process.exit(2);
}

const USAGE = `Usage: npm run paper -- [options]

The paper broker alone (docs/api.md §Running it). Prints one line READY http://127.0.0.1:P/v1 once it serves
(with --control: READY http://127.0.0.1:P/v1 control=SECRET; send the secret in X-Paper-Control).

  --port P                    port on 127.0.0.1 (default 0: any free port)
  --seed N                    the market's random seed (default 1)
  --data-dir DIR              keep the journal in DIR (default: nothing kept)
  --repair                    move a damaged journal's bad tail aside and start
  --control                   enable the control interface (tests, demos), behind a per-launch secret
  --faults SPEC               inject faults (docs/api.md §Faults)
  --rate R/s                  per-token request limit (burst 2R)
  --tick-ms N                 the market's tick period; 0 = prices move only through control
  --no-idempotency            a reused client_order_id is a second order
  --orderbook-lag-ms N        order reads trail the orders by N ms
  --clock ISO[,SPEED] | wall  the market's clock
  --kite-redirect-url URL     where Kite's login page sends the request token
  --kite-order-limits SPEC    Kite's order limits (default 10/s,400/min,5000/day)
  --kite-allowed-ips IPS      where /kite order writes may come from, or none
  --kite-plan connect|personal  the Kite app's plan
  --upstox-allowed-ips IPS    where /upstox-hft order writes may come from, or none
  -h, --help                  this text`;

const { values } = commandLineOrExit(
  readCommandLine(
    'paper',
    USAGE,
    {
      port: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      'data-dir': { type: 'string' },
      control: { type: 'boolean', default: false },
      faults: { type: 'string' },
      rate: { type: 'string' },
      'tick-ms': { type: 'string' },
      'no-idempotency': { type: 'boolean', default: false },
      /** Order reads trail the order system by N ms (docs/api.md §A lagging order book). */
      'orderbook-lag-ms': { type: 'string' },
      repair: { type: 'boolean', default: false },
      /** The market clock: `wall`, or a start time and speed (docs/api.md §Sessions and the calendar). */
      clock: { type: 'string' },
      /** The Kite Connect app's redirect URL (docs/kite.md §Login). */
      'kite-redirect-url': { type: 'string' },
      /** Kite's order limits, `10/s,400/min,5000/day` by default (docs/kite.md §Limits). */
      'kite-order-limits': { type: 'string' },
      /** Where /kite order writes may come from: addresses, or `none` (docs/kite.md §Static IP). */
      'kite-allowed-ips': { type: 'string' },
      'upstox-allowed-ips': { type: 'string' },
      /** The Kite app's plan: `connect` (default) or `personal`, without market data (docs/kite.md §The plan). */
      'kite-plan': { type: 'string' },
    },
    process.argv.slice(2),
  ),
);

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0–65535, not ${values.port}`);
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail(`--seed must be an integer, not ${values.seed}`);
let rate: { perSecond: number; burst: number } | undefined;
if (values.rate !== undefined) {
  const m = /^(\d+(?:\.\d+)?)(?:\/s)?$/.exec(values.rate);
  if (!m) fail(`--rate must look like 10/s, not ${values.rate}`);
  const perSecond = Number(m[1]);
  rate = { perSecond, burst: perSecond * 2 };
}
const tickIntervalMs = values['tick-ms'] === undefined ? undefined : Number(values['tick-ms']);
const kiteRedirectUrl = values['kite-redirect-url'];
if (kiteRedirectUrl !== undefined && !URL.canParse(kiteRedirectUrl))
  fail(`--kite-redirect-url must be a URL such as http://127.0.0.1:5173/kite/callback, not ${kiteRedirectUrl}`);
let kiteOrderLimits: ReturnType<typeof parseOrderLimits> | undefined;
try {
  const spec = values['kite-order-limits'];
  kiteOrderLimits = spec === undefined ? undefined : parseOrderLimits(spec);
} catch (e) {
  fail(`--kite-order-limits ${e instanceof Error ? e.message : 'is invalid'}`);
}
let kiteAllowedIps: string[] | undefined;
try {
  const spec = values['kite-allowed-ips'];
  kiteAllowedIps = spec === undefined ? undefined : parseAllowedIps(spec);
} catch (e) {
  fail(`--kite-allowed-ips ${e instanceof Error ? e.message : 'is invalid'}`);
}
let upstoxAllowedIps: string[] | undefined;
try {
  const spec = values['upstox-allowed-ips'];
  upstoxAllowedIps = spec === undefined ? undefined : parseAllowedIps(spec);
} catch (e) {
  fail(`--upstox-allowed-ips ${e instanceof Error ? e.message : 'is invalid'}`);
}
const kitePlan = values['kite-plan'];
if (kitePlan !== undefined && kitePlan !== 'connect' && kitePlan !== 'personal')
  fail(`--kite-plan must be connect or personal, not ${kitePlan}`);
const lagText = values['orderbook-lag-ms'];
const orderbookLagMs = lagText === undefined ? undefined : Number(lagText);
if (lagText !== undefined && !(/^\d{1,7}$/.test(lagText) && Number(lagText) <= MAX_ORDERBOOK_LAG_MS))
  fail(`--orderbook-lag-ms must be a whole number of ms from 0 to ${MAX_ORDERBOOK_LAG_MS}, not ${lagText}`);
let marketClock: MarketClockSpec | undefined;
try {
  marketClock = values.clock === undefined ? undefined : parseClockSpec(values.clock);
} catch (e) {
  fail(`--clock ${e instanceof Error ? e.message : 'is invalid'}`);
}

try {
  const broker = await startPaperBroker({
    port,
    seed,
    dataDir: values['data-dir'],
    control: values.control,
    faults: values.faults,
    rate,
    tickIntervalMs,
    idempotency: !values['no-idempotency'],
    ...(orderbookLagMs !== undefined ? { orderbookLagMs } : {}),
    repair: values.repair,
    ...(marketClock !== undefined ? { marketClock } : {}),
    ...(kiteRedirectUrl !== undefined ? { kiteRedirectUrl } : {}),
    ...(kiteOrderLimits !== undefined ? { kiteRates: kiteOrderLimits } : {}),
    ...(kiteAllowedIps !== undefined ? { kiteAllowedIps } : {}),
    ...(upstoxAllowedIps !== undefined ? { upstoxAllowedIps } : {}),
    ...(kitePlan !== undefined ? { kitePlan } : {}),
  });
  // The control secret rides on the READY line: whoever started the broker reads it there.
  console.log(`READY ${broker.url}${broker.controlSecret === null ? '' : ` control=${broker.controlSecret}`}`);
  const stop = (): void => {
    broker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
