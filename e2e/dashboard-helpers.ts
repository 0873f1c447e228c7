import { expect, test, type Locator, type Page } from '@playwright/test';
import type { HostHandle } from './host-process';

/**
 * Shared steps of the dashboard e2e specs: open the app, drive the ticket like a trader, and
 * move the paper market through its control interface.
 */

/** Opens the workspace and waits until it is logged in. */
export async function openDashboard(page: Page, host: HostHandle): Promise<void> {
  await page.goto(host.url);
  await expect(page.getByRole('status')).toContainText(/Connected to .+ as \S+/);
}

/** The order ticket form. */
export function ticket(page: Page): Locator {
  return page.getByRole('form', { name: 'Order ticket' });
}

/** The blotter table. */
export function blotter(page: Page): Locator {
  return page.getByRole('table', { name: 'Orders' });
}

/** A blotter row by order id. */
export function orderRow(page: Page, orderId: string): Locator {
  return blotter(page).locator(`tr[data-order-id="${orderId}"]`);
}

/** Picks an instrument in the ticket's Symbol combobox by typing and pressing Enter. */
export async function chooseSymbol(page: Page, text: string, option: RegExp): Promise<void> {
  const t = ticket(page);
  const box = t.getByRole('combobox', { name: 'Symbol' });
  await box.click();
  await box.fill(text);
  const list = t.getByRole('listbox');
  await expect(list.getByRole('option').first()).toHaveText(option);
  await box.press('Enter');
}

/** What the ticket should be filled with. */
export interface TicketFill {
  readonly side?: 'Buy' | 'Sell';
  readonly quantity?: string;
  readonly orderType?: 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';
  readonly product?: 'MIS' | 'CNC' | 'NRML';
  readonly validity?: 'DAY' | 'IOC';
  readonly price?: string;
  readonly triggerPrice?: string;
}

/** Fills the ticket's fields (the symbol must already be chosen). */
export async function fillTicket(page: Page, f: TicketFill): Promise<void> {
  const t = ticket(page);
  if (f.side) await t.getByRole('radio', { name: f.side }).check({ force: true });
  if (f.orderType) await t.getByLabel('Order type').selectOption(f.orderType);
  if (f.product) await t.getByLabel('Product').selectOption(f.product);
  if (f.validity) await t.getByLabel('Validity').selectOption(f.validity);
  if (f.quantity) await t.getByLabel('Quantity').fill(f.quantity);
  if (f.price) await t.getByLabel('Price', { exact: true }).fill(f.price);
  if (f.triggerPrice) await t.getByLabel('Trigger price').fill(f.triggerPrice);
}

/** Clicks Place order and returns the order id the ticket acknowledges. */
export async function placeOrder(page: Page): Promise<string> {
  const t = ticket(page);
  const id = t.getByTestId('ticket-order-id');
  // The ticket may still show the previous placement's id when the click lands; an id is new
  // only once it differs from that one (each placement makes its own order).
  const previous = (await id.count()) > 0 ? ((await id.textContent()) ?? '') : '';
  await t.getByRole('button', { name: 'Place order' }).click();
  await expect(id).toHaveText(/\S+/);
  if (previous) await expect(id).not.toHaveText(previous);
  return (await id.textContent()) ?? '';
}

/** What a request to the paper broker's control interface carries (docs/api.md §Control interface). */
export const controlHeaders = (host: HostHandle): Record<string, string> => ({
  'content-type': 'application/json',
  'X-Paper-Control': host.paperControl,
});

/** A bearer token of the app's paper session (read from the control interface; test code only). */
export async function paperToken(host: HostHandle): Promise<string> {
  const res = await fetch(`${host.paperUrl}/_control/sessions`, { headers: controlHeaders(host) });
  const body = (await res.json()) as { sessions: Array<{ access_token: string; active: boolean }> };
  const s = body.sessions.filter((x) => x.active).pop();
  if (!s) throw new Error('no active paper session');
  return s.access_token;
}

/**
 * A GET on the paper broker with the app's token, waiting out any 429: the test shares the app's
 * session, so its reads count against the same rate limit as the desk's own polls.
 */
export async function paperRead<T>(host: HostHandle, token: string, path: string): Promise<T> {
  let body: unknown;
  await expect(async () => {
    const res = await fetch(`${host.paperUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    body = JSON.parse(text);
  }).toPass();
  return body as T;
}

/** A session of its own on the paper account, as another terminal logging in would have: its bearer token. */
export async function paperLogin(host: HostHandle): Promise<string> {
  const res = await fetch(`${host.paperUrl}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return (JSON.parse(text) as { access_token: string }).access_token;
}

/**
 * Places an order on the paper account through the broker's REST API with `token` (what another
 * terminal or device would do; NSE and DAY unless `order` says otherwise) and returns its id. A 429
 * is waited out, as the token may be the app's own; any other refusal fails the test (nothing is
 * sent twice).
 */
export async function paperPlace(host: HostHandle, token: string, order: Record<string, unknown>): Promise<string> {
  let reply = { status: 0, text: '' };
  await expect(async () => {
    const res = await fetch(`${host.paperUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ exchange: 'NSE', validity: 'DAY', ...order }),
    });
    reply = { status: res.status, text: await res.text() };
    expect(reply.status, 'rate limited: waited out').not.toBe(429);
  }).toPass();
  expect(reply.status, reply.text).toBe(201);
  return (JSON.parse(reply.text) as { order_id: string }).order_id;
}

/** The paper broker's instrument token of a symbol on an exchange. */
export async function instrumentToken(host: HostHandle, exchange: string, symbol: string): Promise<number> {
  const token = await paperToken(host);
  const body = await paperRead<{ instruments: Array<{ instrument_token: number; tradingsymbol: string }> }>(
    host,
    token,
    `/instruments?exchange=${exchange}`,
  );
  const i = body.instruments.find((x) => x.tradingsymbol === symbol);
  if (!i) throw new Error(`${exchange}:${symbol} not found`);
  return i.instrument_token;
}

/** Sets an instrument's last price on the paper market (runs matching). */
export async function setPrice(host: HostHandle, token: number, lastPrice: number): Promise<void> {
  const res = await fetch(`${host.paperUrl}/_control/price`, {
    method: 'POST',
    headers: controlHeaders(host),
    body: JSON.stringify({ instrument_token: token, last_price: lastPrice }),
  });
  if (!res.ok) throw new Error(`control/price → ${res.status} ${await res.text()}`);
}

/**
 * Moves the paper market's clock to a minute into the next NSE session (docs/api.md §Sessions
 * and the calendar): the close in between cancels DAY orders and squares off MIS, and the day's
 * CNC buys become holdings (T+1).
 */
export async function nextSession(host: HostHandle): Promise<void> {
  const token = await paperToken(host);
  const status = await paperRead<{ exchanges: Array<{ exchange: string; next_open: string }> }>(
    host,
    token,
    '/market/status',
  );
  const open = Date.parse(status.exchanges.find((e) => e.exchange === 'NSE')!.next_open);
  const res = await fetch(`${host.paperUrl}/_control/clock`, {
    method: 'POST',
    headers: controlHeaders(host),
    body: JSON.stringify({ at: new Date(open + 60_000).toISOString() }),
  });
  if (!res.ok) throw new Error(`control/clock → ${res.status} ${await res.text()}`);
}

/** Sets (or with `{}` clears) the paper broker's fault injection. */
export async function setFaults(host: HostHandle, faults: Record<string, number>): Promise<void> {
  const res = await fetch(`${host.paperUrl}/_control/faults`, {
    method: 'POST',
    headers: controlHeaders(host),
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`control/faults → ${res.status} ${await res.text()}`);
}

/** A hold on the paper broker's requests (docs/api.md §Holding replies). */
export interface HeldReplies {
  /** Resolves once `count` matching requests (default 1) are waiting at the hold. */
  waitUntilHeld(count?: number): Promise<void>;
  /** Lets every waiting request through (each is handled then) and ends the hold. */
  release(): Promise<void>;
}

/**
 * Holds every request to the paper broker matching `method` and `pathPrefix` (`/v1/orders`,
 * `/kite/orders`) before it is handled, until released: how a spec sees an in-between state
 * ("waiting for the broker") without racing a timed window on a loaded machine.
 */
export async function holdReplies(
  host: HostHandle,
  spec: { readonly method?: string; readonly pathPrefix: string },
): Promise<HeldReplies> {
  const control = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${host.paperUrl}/_control/${path}`, {
      method,
      headers: controlHeaders(host),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`control/${path} → ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const { id } = (await control('POST', 'hold', { method: spec.method, path_prefix: spec.pathPrefix })) as {
    id: string;
  };
  return {
    async waitUntilHeld(count = 1) {
      await expect
        .poll(async () => {
          const { holds } = (await control('GET', 'holds')) as { holds: Array<{ id: string; waiting: number }> };
          return holds.find((h) => h.id === id)?.waiting ?? 0;
        })
        .toBeGreaterThanOrEqual(count);
    },
    async release() {
      await control('POST', 'release', { id });
    },
  };
}

/**
 * Switches the paper broker's stream off (every socket cut, reconnects refused) or back on. With
 * it off the desk has nothing pushing changes to it and polls fast again (docs/live-data.md,
 * The cadence): specs that need a figure refreshed within seconds by polling run in that state.
 */
export async function setStreamAccepting(host: HostHandle, accept: boolean): Promise<void> {
  const res = await fetch(`${host.paperUrl}/_control/stream`, {
    method: 'POST',
    headers: controlHeaders(host),
    body: JSON.stringify({ accept }),
  });
  if (!res.ok) throw new Error(`control/stream → ${res.status} ${await res.text()}`);
}

/** Cuts the stream and waits until the desk shows it is no longer live (so it polls fast). */
export async function cutStream(page: Page, host: HostHandle): Promise<void> {
  await setStreamAccepting(host, false);
  await expect(page.getByTestId('stream-state')).not.toHaveAttribute('data-state', 'open');
}

/**
 * Where a spec's picture of a documented screen goes: docs/ when `TD_DOC_SHOTS=1` (re-taking the
 * docs' pictures on purpose), else the test's own output folder — a test run never rewrites the
 * repository's files.
 */
export function docShotPath(name: string): string {
  return process.env.TD_DOC_SHOTS === '1' ? `docs/${name}` : test.info().outputPath(name);
}

/** Sets INFY's price on `host`, opens the dashboard and chooses INFY in the ticket; returns INFY's token. */
export async function openOnInfy(page: Page, host: HostHandle, price = 1500): Promise<number> {
  const infy = await instrumentToken(host, 'NSE', 'INFY');
  await setPrice(host, infy, price);
  await openDashboard(page, host);
  await chooseSymbol(page, 'INFY', /^INFY NSE/);
  return infy;
}

/** A position's "Net qty" cell (after the selection box, the symbol and the product). */
export function netQty(page: Page, symbol: string): Locator {
  return page
    .getByRole('table', { name: 'Positions' })
    .getByRole('row', { name: new RegExp(symbol) })
    .getByRole('cell')
    .nth(3);
}

/** Sets the risk limits in the dialog: a figure per row label, `hard` ticked or not. */
export async function setLimits(page: Page, rows: Record<string, { value: string; hard: boolean }>): Promise<void> {
  await page.getByTestId('risk-chip').click();
  const dialog = page.getByRole('dialog', { name: 'Risk limits' });
  for (const [label, { value, hard }] of Object.entries(rows)) {
    await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole('checkbox', { name: `Hard limit: ${label}` }).setChecked(hard);
  }
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(dialog).toBeHidden();
}
