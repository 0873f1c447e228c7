/**
 * `npm run bench -- poll [--seconds 60] [--warmup 10] [--policy both|new|today]`
 *
 * The polling budget: what an open desk asks of its broker, counted at the broker. The real app
 * services (browser host, main-process core) drive the real renderer in Debian's Chromium, and
 * talk to a paper broker through a byte-counting proxy (bench/poll/counting-proxy.ts), so every
 * request and every byte the desk sends is counted where the broker would count it. For 60 s in
 * each state:
 *
 * - idle, stream live: the app open, the ticket open, no orders, the stream healthy;
 * - one working order, stream live: a LIMIT buy far under the market rests at the broker;
 * - stream down: the proxy cuts the stream and refuses to let it back (no working order).
 *
 * Two renderers in the same run: the app (`new`), and the same app built with the cadence it had
 * before it followed the stream (`today`: bench/poll/todays-cadence.ts swapped in for
 * renderer/lib/cadence.ts at build time — a switch in this harness, not in the product). Prints
 * requests/s and bytes/s per state and policy, the requests by endpoint, how old the figures on
 * screen got against their panel's freshness promise (sampled every 500 ms from the labels'
 * `data-updated-at` / `data-max-age-ms`), the header's meter, and a JSON summary last.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type * as PlaywrightModule from '@playwright/test';
import type { Page } from '@playwright/test';
import type * as ViteModule from 'vite';
import { createAppServices, type AppServices } from '../electron/app/app-services';
import { createDispatcher } from '../electron/app/dispatcher';
import { startHost, type RunningHost } from '../electron/host/host-server';
import { startPaperBroker, type PaperBroker } from '../electron/paper';
import { roundToTick } from '@shared/trading/money';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { CountingProxy, countsBetween, totalRequests, type ProxyCounts } from './poll/counting-proxy';

type Playwright = typeof PlaywrightModule;
type Policy = 'new' | 'today';
type StateName = 'idle_live' | 'working_live' | 'stream_down';

const STATE_LABEL: Record<StateName, string> = {
  idle_live: 'idle, stream live',
  working_live: 'one working order, stream live',
  stream_down: 'stream down',
};

/** The goals, checked against the `new` policy. */
const GOALS = { idleRequestsPerS: 0.2, idleBytesPerS: 200, workingRequestsPerS: 1.5 } as const;

/** One panel label sampled in the page. */
interface AgeSample {
  readonly panel: string;
  readonly ageMs: number;
  readonly maxAgeMs: number;
  readonly stale: boolean;
}

interface StateResult {
  readonly policy: Policy;
  readonly state: StateName;
  readonly seconds: number;
  readonly counts: ProxyCounts;
  readonly requestsPerS: number;
  readonly httpBytesPerS: number;
  readonly streamBytesPerS: number;
  readonly samples: readonly AgeSample[];
  readonly meter: string | null;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

function percentile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
}

/** Installed in the page before the app: samples every panel's freshness label twice a second. */
function ageProbe(): void {
  const probe = { on: false, samples: [] as AgeSample[] };
  (window as unknown as { __poll: typeof probe }).__poll = probe;
  setInterval(() => {
    if (!probe.on) return;
    const now = Date.now();
    for (const el of document.querySelectorAll<HTMLElement>('.freshness[data-max-age-ms]')) {
      const at = Number(el.dataset.updatedAt);
      if (!(at > 0)) continue;
      probe.samples.push({
        panel: el.closest('section')?.querySelector('h2')?.textContent ?? '?',
        ageMs: now - at,
        maxAgeMs: Number(el.dataset.maxAgeMs),
        stale: el.dataset.stale === 'true',
      });
    }
  }, 500);
}

async function setProbe(page: Page, on: boolean): Promise<AgeSample[]> {
  return page.evaluate((on) => {
    const p = (window as unknown as { __poll: { on: boolean; samples: AgeSample[] } }).__poll;
    p.on = on;
    const out = p.samples;
    p.samples = [];
    return out;
  }, on);
}

/**
 * Builds the renderer with today's cadence in place of the app's into `outDir`: the baseline's
 * only difference from the app.
 */
async function buildTodaysRenderer(outDir: string): Promise<void> {
  const name = 'vite';
  const vite = (await import(name)) as typeof ViteModule;
  const todays = join(root, 'bench/poll/todays-cadence.ts');
  await vite.build({
    configFile: join(root, 'vite.config.ts'),
    root: join(root, 'renderer'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    plugins: [
      {
        name: 'todays-cadence',
        enforce: 'pre',
        async resolveId(source, importer, opts) {
          const resolved = await this.resolve(source, importer, { ...opts, skipSelf: true });
          return resolved?.id.endsWith('/renderer/lib/cadence.ts') ? todays : null;
        },
      },
    ],
  });
}

/** Runs the three states against one renderer build; everything is fresh per policy. */
async function measurePolicy(
  pw: Playwright,
  policy: Policy,
  rendererDir: string,
  seconds: number,
  warmup: number,
): Promise<StateResult[]> {
  const dir = await mkdtemp(join(tmpdir(), `td-poll-${policy}-`));
  let paper: PaperBroker | null = null;
  let proxy: CountingProxy | null = null;
  let services: AppServices | null = null;
  let host: RunningHost | null = null;
  const browser = await pw.chromium.launch(chromiumLaunchOptions());
  const out: StateResult[] = [];
  try {
    paper = await startPaperBroker({ port: 0, dataDir: join(dir, 'paper') });
    proxy = await CountingProxy.start(new URL(paper.url).origin);
    services = await createAppServices({
      dataDir: join(dir, 'app'),
      brokerUrl: `${proxy.origin}/v1`,
      apiKey: 'paper',
      apiSecret: 'paper',
      log: () => undefined,
    });
    const dispatch = createDispatcher(services.handlers);
    host = await startHost({ port: 0, rendererDir, dispatch, events: services.events });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(ageProbe);
    const page = await context.newPage();
    await page.goto(host.url);
    await page.getByText(/Connected to .+ as \S+/).waitFor();
    await page.locator('[data-testid="stream-state"][data-state="open"]').waitFor();
    await sleep(warmup * 1000);

    const measure = async (state: StateName): Promise<void> => {
      await setProbe(page, true);
      const before = proxy!.snapshot();
      const t0 = performance.now();
      await sleep(seconds * 1000);
      const counts = countsBetween(before, proxy!.snapshot());
      const wall = (performance.now() - t0) / 1000;
      const samples = await setProbe(page, false);
      const meter = await page
        .getByTestId('usage-meter')
        .textContent({ timeout: 1_000 })
        .catch(() => null);
      out.push({
        policy,
        state,
        seconds: wall,
        counts,
        requestsPerS: totalRequests(counts) / wall,
        httpBytesPerS: counts.httpBytes / wall,
        streamBytesPerS: counts.streamBytes / wall,
        samples,
        meter,
      });
    };

    await measure('idle_live');

    // One working order: a LIMIT buy 8% under the market, placed through main as a click would.
    const instruments = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!instruments.ok) throw new Error(instruments.error.message);
    const eq = (
      instruments.data as Array<{
        tradingsymbol: string;
        instrumentType: string;
        lastPrice: number;
        tickSize: number;
        lotSize: number;
      }>
    ).find((i) => i.instrumentType === 'EQ' && i.lotSize === 1 && i.lastPrice > 100);
    if (!eq) throw new Error('no NSE equity to rest an order on');
    const placed = await dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: eq.tradingsymbol,
        transactionType: 'BUY',
        quantity: 1,
        orderType: 'LIMIT',
        product: 'CNC',
        validity: 'DAY',
        price: roundToTick(eq.lastPrice * 0.92, eq.tickSize),
      },
    });
    if (!placed.ok) throw new Error(placed.error.message);
    const orderId = (placed.data as { orderId?: string }).orderId;
    if (!orderId) throw new Error('the resting order was not confirmed');
    const row = page.locator(`tr[data-order-id="${orderId}"]`);
    await row.getByText('OPEN', { exact: true }).waitFor();
    await sleep(3_000); // the placement's own reconcile is not the steady state
    await measure('working_live');
    const cancelled = await dispatch('orders.cancel', { orderId });
    if (!cancelled.ok) throw new Error(cancelled.error.message);
    await row.getByText('CANCELLED', { exact: true }).waitFor();

    // Stream down: the proxy cuts it and refuses every reconnect.
    proxy.refuseStream(true);
    await page.locator('[data-testid="stream-state"]:not([data-state="open"])').waitFor();
    await sleep(3_000);
    await measure('stream_down');
    await context.close();
  } finally {
    await browser.close();
    await host?.close();
    await services?.close();
    await proxy?.close();
    await paper?.close();
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** The age-on-screen figures of a state: percentiles in seconds and as a share of the promise. */
function ages(samples: readonly AgeSample[]) {
  const fresh = samples.filter((s) => !s.stale);
  const ratio = samples.map((s) => s.ageMs / s.maxAgeMs);
  return {
    samples: samples.length,
    p50_s: round(
      percentile(
        samples.map((s) => s.ageMs / 1000),
        0.5,
      ),
      1,
    ),
    p99_s: round(
      percentile(
        samples.map((s) => s.ageMs / 1000),
        0.99,
      ),
      1,
    ),
    p99_of_promise: round(percentile(ratio, 0.99)),
    max_of_promise: round(Math.max(0, ...ratio)),
    /** Figures older than their promise shown as fresh: the honesty check (must be 0). */
    unmarked_over_promise: fresh.filter((s) => s.ageMs > s.maxAgeMs).length,
    stale_share: samples.length ? round(samples.filter((s) => s.stale).length / samples.length, 3) : 0,
  };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seconds: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '10' },
      policy: { type: 'string', default: 'both' },
    },
    strict: true,
  });
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  if (!(seconds >= 5 && seconds <= 600)) throw new Error('--seconds must be between 5 and 600');
  if (!(warmup >= 0 && warmup <= 120)) throw new Error('--warmup must be between 0 and 120');
  const policies: Policy[] =
    values.policy === 'both' ? ['new', 'today'] : values.policy === 'new' ? ['new'] : ['today'];
  if (!['both', 'new', 'today'].includes(values.policy ?? '')) throw new Error('--policy is both, new or today');
  const name = '@playwright/test';
  const pw = (await import(name)) as Playwright;

  const results: StateResult[] = [];
  const buildDir = await mkdtemp(join(tmpdir(), 'td-poll-renderer-'));
  try {
    for (const policy of policies) {
      let rendererDir = join(here, 'renderer');
      if (policy === 'today') {
        rendererDir = join(buildDir, 'renderer');
        await buildTodaysRenderer(rendererDir);
      }
      results.push(...(await measurePolicy(pw, policy, rendererDir, seconds, warmup)));
    }
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }

  console.log(
    `the desk in Chromium against the browser host, paper broker behind a byte-counting proxy; ${seconds} s per state`,
  );
  console.log(
    '| state | policy | requests/s | HTTP bytes/s | stream bytes/s | age p50 / p99 (s) | p99 / max of promise | older than promise, unmarked | stale share | meter |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const a = ages(r.samples);
    console.log(
      `| ${STATE_LABEL[r.state]} | ${r.policy} | ${r.requestsPerS.toFixed(2)} | ${r.httpBytesPerS.toFixed(0)} | ${r.streamBytesPerS.toFixed(0)} | ${a.p50_s} / ${a.p99_s} | ${a.p99_of_promise} / ${a.max_of_promise} | ${a.unmarked_over_promise} of ${a.samples} | ${a.stale_share} | ${r.meter ?? '—'} |`,
    );
  }
  console.log('\nrequests by endpoint (per minute):');
  for (const r of results) {
    const per = [...r.counts.requests]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${round((n * 60) / r.seconds, 1)}`)
      .join(' · ');
    console.log(`- ${STATE_LABEL[r.state]} (${r.policy}): ${per || 'none'}`);
  }

  const pick = (policy: Policy, state: StateName) => results.find((r) => r.policy === policy && r.state === state);
  const summary: Record<string, unknown> = { suite: 'poll', seconds_per_state: seconds };
  for (const state of Object.keys(STATE_LABEL) as StateName[]) {
    const entry: Record<string, unknown> = {};
    for (const policy of policies) {
      const r = pick(policy, state);
      if (!r) continue;
      const a = ages(r.samples);
      entry[policy] = {
        requests_per_s: round(r.requestsPerS, 3),
        http_bytes_per_s: Math.round(r.httpBytesPerS),
        stream_bytes_per_s: Math.round(r.streamBytesPerS),
        age_p99_of_promise: a.p99_of_promise,
        age_max_of_promise: a.max_of_promise,
        unmarked_over_promise: a.unmarked_over_promise,
      };
    }
    const n = pick('new', state);
    const t = pick('today', state);
    if (n && t && n.requestsPerS > 0) entry.today_over_new = round(t.requestsPerS / n.requestsPerS, 1);
    summary[state] = entry;
  }
  const idle = pick('new', 'idle_live');
  const working = pick('new', 'working_live');
  const down = pick('new', 'stream_down');
  const downToday = pick('today', 'stream_down');
  summary.goals = {
    idle_requests: idle ? idle.requestsPerS <= GOALS.idleRequestsPerS : null,
    idle_bytes: idle ? idle.httpBytesPerS <= GOALS.idleBytesPerS : null,
    working_requests: working ? working.requestsPerS <= GOALS.workingRequestsPerS : null,
    // "no more than today's": within 10% (the same 1 s cadence, so only timing noise differs).
    stream_down_not_above_today: down && downToday ? down.requestsPerS <= downToday.requestsPerS * 1.1 : null,
    honest_staleness: results
      .filter((r) => r.policy === 'new')
      .every((r) => ages(r.samples).unmarked_over_promise === 0),
  };
  console.log(JSON.stringify(summary));
}
