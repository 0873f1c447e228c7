import type { Page } from '@playwright/test';
import { startCpuProfile, type PhaseProfile } from './chromium-profile';

/**
 * The price ladder's phase of `npm run bench -- dashboard` (docs/ladder.md §Speed), run on the
 * same page, host and churning book as the ticket's clicks, right after them:
 *
 * - ladder click → acknowledged: a real click on a row's bid cell (the click event's own
 *   timestamp) to the paint of the frame whose cell shows the order placed (its "Placed" mark or
 *   the working order itself), with the same parts as the ticket's figure; each is followed by a
 *   ticket click, the paired baseline;
 * - repaint at 20 depth updates a second: the paper market's price set 20 times a second through
 *   its control interface (each a new book), while the page counts its frames (rAF deltas) and
 *   the ladder's paint probe (renderer/features/ladder/ladder-paint-probe.ts) times each book it
 *   draws, from the `market.ticks` message's arrival to the paint of the frame showing it. The
 *   same updates with the Depth tab shown instead are the same-run baseline; then the same with
 *   the chart in the ladder's place (its tab), its instrument's working orders as price lines.
 */

const LADDER_MARK = 'ladder-painted'; // renderer/features/ladder/ladder-paint-probe.ts
const LADDER = 'table[aria-label="Price ladder"]';

/** One click's latency and its parts, as the ticket's ClickSample. */
interface LadderClickSample {
  ms: number;
  toSend: number;
  roundTrip: number;
  toPaint: number;
}

/** The page's `__bench.clickParts` (dashboard-bench.ts, pageTaps): a click seen → its painted frame, in parts. */
export type PageClickParts = (from: number, placeIndex: number) => Promise<LadderClickSample>;

/** What the ladder phase measured. */
export interface LadderResult {
  clicks: number[];
  toSend: number[];
  roundTrip: number[];
  toPaint: number[];
  clickErrors: number;
  /** The ticket's click → acknowledged, each right after a ladder click (the paired baseline). */
  pairedTicket: number[];
  /**
   * Per panel shown: rAF deltas, and each drawn book's arrival → painted (the ladder only). The
   * ladder is a tab of the chart's slot, so `chart` is the chart (with its working orders' price
   * lines) in its place, beside the Depth tab.
   */
  frames: { ladder: number[]; depth: number[]; chart: number[] };
  bookToPaint: number[];
  /** Each drawn book's commit → painted: the frame's style, layout and paint after React wrote it. */
  commitToPaint: number[];
  /** Depth updates sent per second, and books the ladder painted per second. */
  updatesPerS: number;
  paintsPerS: number;
  /** With `--profile DIR`: the repaint windows' trace and CPU profile, ladder and depth. */
  profiles: { ladder?: PhaseProfile; depth?: PhaseProfile; chart?: PhaseProfile };
}

export const emptyLadder = (clicks: number): LadderResult => ({
  clicks: [],
  toSend: [],
  roundTrip: [],
  toPaint: [],
  clickErrors: clicks,
  pairedTicket: [],
  frames: { ladder: [], depth: [], chart: [] },
  bookToPaint: [],
  commitToPaint: [],
  updatesPerS: Number.NaN,
  paintsPerS: Number.NaN,
  profiles: {},
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sets the paper market's last price of one instrument (a new book around it). */
type SetPrice = (lastPrice: number) => Promise<void>;

/** Shows a tab of the depth slot and waits for its table. */
async function showTab(page: Page, tab: string, table: string): Promise<void> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await page.locator(`table[aria-label="${table}"]`).first().waitFor();
}

/** One real click on a row's bid cell → the paint of the frame showing its order placed. */
async function clickRow(page: Page, price: string): Promise<LadderClickSample> {
  await page.evaluate(
    ({ price, ladder }) => {
      const w = window as unknown as {
        __ladderAck: Promise<LadderClickSample>;
        __bench: { places: Array<{ sent: number; replied: number | null }>; clickParts: PageClickParts };
      };
      const placesBefore = w.__bench.places.length;
      const row = document.querySelector(`${ladder} tr[data-price="${price}"]`);
      const cell = row?.querySelector('td.ladder__orders--buy');
      const button = row?.querySelector<HTMLButtonElement>('td.ladder__side--bid button');
      if (!row || !cell || !button) throw new Error(`no ladder row ${price}`);
      const ids = (): string[] =>
        [...cell.querySelectorAll('[data-order-id]')].map((e) => e.getAttribute('data-order-id') ?? '');
      const before = new Set(ids());
      w.__ladderAck = new Promise((resolve, reject) => {
        let clickedAt: number | null = null;
        button.addEventListener('click', (e) => (clickedAt = e.timeStamp), { capture: true, once: true });
        const seen = new MutationObserver(() => {
          if (clickedAt === null) return;
          const failed = cell.querySelector('[data-state="refused"], [data-state="unconfirmed"]');
          if (failed) {
            seen.disconnect();
            reject(new Error(`ladder click at ${price}: ${failed.textContent ?? ''}`));
            return;
          }
          if (!ids().some((id) => id && !before.has(id))) return;
          seen.disconnect();
          void w.__bench.clickParts(clickedAt, placesBefore).then(resolve);
        });
        seen.observe(cell, { subtree: true, childList: true, attributes: true });
      });
    },
    { price, ladder: LADDER },
  );
  await page.locator(`${LADDER} tr[data-price="${price}"] td.ladder__side--bid button`).click({ timeout: 10_000 });
  return page.evaluate(() =>
    Promise.race([
      (window as unknown as { __ladderAck: Promise<LadderClickSample> }).__ladderAck,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no placed order within 10 s')), 10_000)),
    ]),
  );
}

/** rAF deltas over `ms`. */
function frames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (ms) =>
      new Promise<number[]>((resolve) => {
        const deltas: number[] = [];
        let last: number | null = null;
        const start = performance.now();
        const frame = (t: number): void => {
          if (last !== null) deltas.push(t - last);
          last = t;
          if (performance.now() - start >= ms) return resolve(deltas);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    ms,
  );
}

/** Sets the price `perS` times a second for `ms`, a tick up and down around `base`; returns updates sent. */
async function depthUpdates(setPrice: SetPrice, base: number, tick: number, perS: number, ms: number): Promise<number> {
  const every = 1000 / perS;
  const start = performance.now();
  let k = 0;
  while (performance.now() - start < ms) {
    const step = [0, 1, 0, -1][k % 4] ?? 0;
    await setPrice(Math.round((base + step * tick) * 100) / 100);
    k += 1;
    const next = start + k * every;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
  return k;
}

/** The ladder's probe marks and the `market.ticks` arrivals since the last call, cleared. */
async function collectBooks(
  page: Page,
): Promise<{ marks: Array<{ committed: number; painted: number }>; ticks: number[] }> {
  return page.evaluate((mark) => {
    const w = window as unknown as { __bench: { ticks: number[] } };
    const marks = performance
      .getEntriesByName(mark)
      .map((e) => (e as PerformanceMark).detail as { committed: number; painted: number });
    performance.clearMarks(mark);
    const ticks = w.__bench.ticks;
    w.__bench.ticks = [];
    return { marks, ticks };
  }, LADDER_MARK);
}

/** Each drawn book: from the latest `market.ticks` arrival before its commit to its paint. */
function arrivalToPaint(
  marks: ReadonlyArray<{ committed: number; painted: number }>,
  ticks: readonly number[],
): number[] {
  const sorted = [...ticks].sort((a, b) => a - b);
  const out: number[] = [];
  for (const m of marks) {
    let arrival: number | null = null;
    for (const t of sorted) {
      if (t > m.committed) break;
      arrival = t;
    }
    if (arrival !== null && m.committed - arrival < 1000) out.push(m.painted - arrival);
  }
  return out;
}

/**
 * The ladder phase: the ticket already shows `symbol` (so the ladder does), the ladder tab is
 * opened, `placements` rows below the market are clicked, then the repaint is measured.
 */
export async function measureLadder(
  page: Page,
  o: {
    placements: number;
    capMs: number;
    setPrice: SetPrice;
    tick: number;
    windowMs: number;
    /** One click on the ticket's Place order → its id painted (ms): the paired baseline. */
    ticketClick: () => Promise<number>;
    /** Where to write a trace and a CPU profile of each repaint window (none if null). */
    profileDir: string | null;
  },
): Promise<LadderResult> {
  const out = emptyLadder(o.placements);
  out.clickErrors = 0;
  await showTab(page, 'Ladder', 'Price ladder');
  // The five lowest rows, 16 to 20 ticks under the centre: far below the bid, so each click is
  // a BUY LIMIT that rests (a fill would set off the fills' own work in main and the page:
  // positions, funds, the journal — another figure than the click's).
  const rows = await page.evaluate((ladder) => {
    const all = [...document.querySelectorAll(`${ladder} tbody tr[data-price]`)];
    const centre = Math.floor(all.length / 2);
    return all.slice(centre + 16, centre + 21).map((r) => r.getAttribute('data-price') ?? '');
  }, LADDER);
  if (rows.length === 0) throw new Error('the ladder shows no rows');
  // Each ladder click is paired with a ticket click right after it, so both meet the same load
  // (a shared machine's load drifts between phases; the pairs do not).
  const start = Date.now();
  for (let i = 0; i < o.placements && Date.now() - start < o.capMs; i += 1) {
    try {
      const r = await clickRow(page, rows[i % rows.length] as string);
      out.clicks.push(r.ms);
      out.toSend.push(r.toSend);
      out.roundTrip.push(r.roundTrip);
      out.toPaint.push(r.toPaint);
    } catch (e) {
      out.clickErrors += 1;
      console.error(`ladder click ${i + 1} failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    }
    await sleep(200);
    try {
      out.pairedTicket.push(await o.ticketClick());
    } catch (e) {
      console.error(
        `paired ticket click ${i + 1} failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`,
      );
    }
    await sleep(200);
  }

  // Repaint: the same 20 updates a second with the ladder shown, then with the depth shown,
  // around the last price the ladder marks (so every update moves rows it shows).
  const last = await page.evaluate(
    (ladder) => document.querySelector(`${ladder} tr.ladder__row--last`)?.getAttribute('data-price') ?? '',
    LADDER,
  );
  const price = Number(last.replace(/,/g, ''));
  if (!(price > 0)) throw new Error('the ladder marks no last price');
  await collectBooks(page);
  const stopLadder = o.profileDir ? await startCpuProfile(page, o.profileDir, 'ladder-repaint') : null;
  const t0 = performance.now();
  const [ladderFrames, sent] = await Promise.all([
    frames(page, o.windowMs),
    depthUpdates(o.setPrice, price, o.tick, 20, o.windowMs),
  ]);
  const seconds = (performance.now() - t0) / 1000;
  // Read before the profiler stops: the page goes on painting books while it does (bench/measured-window.ts).
  const books = await collectBooks(page);
  if (stopLadder) out.profiles.ladder = await stopLadder();
  out.frames.ladder = ladderFrames;
  out.bookToPaint = arrivalToPaint(books.marks, books.ticks);
  out.commitToPaint = books.marks.map((m) => m.painted - m.committed);
  out.updatesPerS = sent / seconds;
  out.paintsPerS = books.marks.length / seconds;
  await showTab(page, 'Depth', 'Market depth');
  const stopDepth = o.profileDir ? await startCpuProfile(page, o.profileDir, 'depth-repaint') : null;
  const [depthFrames] = await Promise.all([
    frames(page, o.windowMs),
    depthUpdates(o.setPrice, price, o.tick, 20, o.windowMs),
  ]);
  if (stopDepth) out.profiles.depth = await stopDepth();
  out.frames.depth = depthFrames;
  // The chart in the ladder's place: its instrument's working orders are price lines (docs/ladder.md §Speed).
  await page.getByRole('tab', { name: 'Chart', exact: true }).click();
  await page.locator('[data-testid="chart-canvas"] canvas').first().waitFor();
  const stopChart = o.profileDir ? await startCpuProfile(page, o.profileDir, 'chart-repaint') : null;
  const [chartFrames] = await Promise.all([
    frames(page, o.windowMs),
    depthUpdates(o.setPrice, price, o.tick, 20, o.windowMs),
  ]);
  if (stopChart) out.profiles.chart = await stopChart();
  out.frames.chart = chartFrames;
  return out;
}
