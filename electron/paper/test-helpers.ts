import { type PaperBroker, type PaperBrokerOptions, startPaperBroker } from './index';

/**
 * Test helpers: a real broker on a random loopback port and a tiny JSON client, so tests
 * assert what a client would notice (status, headers, bodies), not internals.
 */

export interface Res {
  readonly status: number;
  readonly headers: Headers;
  // Tests read arbitrary fields; the schemas are asserted where the shape matters.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface Api {
  readonly broker: PaperBroker;
  readonly token: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    init?: { token?: string | null; headers?: Record<string, string>; raw?: string },
  ): Promise<Res>;
  /** POST /orders with defaults (NSE INFY, BUY 1 MARKET MIS DAY) overridden by `o`. */
  place(o?: Record<string, unknown>): Promise<Res>;
  instrument(
    exchange: string,
    tradingsymbol: string,
  ): Promise<{
    instrument_token: number;
    last_price: number;
    lot_size: number;
    tick_size: number;
    freeze_quantity: number;
    instrument_type: string;
  }>;
  order(id: string): Promise<Res['body']>;
  /** GET /quotes for one instrument: its last price, bid/ask, depth, circuit limits. */
  quote(token: number): Promise<Res['body']>;
  /**
   * Moves the market to `price`, places a LIMIT order (defaults as `place`) there and has the
   * market trade there again, so it fills whole at exactly `price` (docs/api.md §Matching,
   * resting LIMIT orders): for tests of what a fill does, not how it is matched.
   */
  fillAt(o: Record<string, unknown>, price: number): Promise<Res>;
  close(): Promise<void>;
}

/** The order tests place when the order itself is not the point: /v1's wire, valid under every rule. */
export const MARKET_BUY_INFY = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transaction_type: 'BUY',
  quantity: 1,
  order_type: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
} as const;

const isControlHeader = (name: string): boolean => name.toLowerCase() === 'x-paper-control';

export async function startTestBroker(opts: PaperBrokerOptions = {}): Promise<Api> {
  // Faults are switched on after the login, so a test of them starts with a valid token.
  const { faults, ...rest } = opts;
  const broker = await startPaperBroker({
    control: true,
    tickIntervalMs: 0,
    rate: { perSecond: 10_000, burst: 10_000 },
    ...rest,
  });
  const call: Api['call'] = async (method, path, body, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    // The control interface takes its secret, not a token (docs/api.md §Control interface).
    if (path.startsWith('/_control') && broker.controlSecret !== null && !Object.keys(headers).some(isControlHeader))
      headers['X-Paper-Control'] = broker.controlSecret;
    const tok = init.token === undefined ? api.token : init.token;
    if (tok) headers.authorization = `Bearer ${tok}`;
    let payload: string | undefined = init.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const r = await fetch(broker.url + path, { method, headers, body: payload });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep text */
    }
    return { status: r.status, headers: r.headers, body: parsed };
  };
  const api: { -readonly [K in keyof Api]: Api[K] } = {
    broker,
    token: '',
    call,
    place: (o = {}) => call('POST', '/orders', { ...MARKET_BUY_INFY, ...o }),
    async instrument(exchange, tradingsymbol) {
      const r = await call('GET', `/instruments?exchange=${exchange}`);
      const i = r.body.instruments.find((x: { tradingsymbol: string }) => x.tradingsymbol === tradingsymbol);
      if (!i) throw new Error(`no ${exchange}:${tradingsymbol}`);
      return i;
    },
    async order(id) {
      return (await call('GET', `/orders/${id}`)).body.order;
    },
    async quote(token) {
      const r = await call('GET', `/quotes?i=${token}`);
      const q = r.body.quotes?.[0];
      if (!q) throw new Error(`no quote for ${token}`);
      return q;
    },
    async fillAt(o, price) {
      const i = await api.instrument(String(o.exchange ?? 'NSE'), String(o.tradingsymbol ?? 'INFY'));
      // At `price` the book is a spread away on both sides: the limit rests, then the next trade
      // at `price` fills it there.
      broker.setPrice(i.instrument_token, price);
      const r = await api.place({ ...o, order_type: 'LIMIT', price });
      broker.setPrice(i.instrument_token, price);
      return r;
    },
    close: () => broker.close(),
  };
  const s = await call(
    'POST',
    '/session',
    { api_key: 'paper', api_secret: rest.apiSecret ?? 'paper' },
    { token: null },
  );
  api.token = s.body.access_token;
  if (faults !== undefined) broker.setFaults(faults);
  return api;
}

/** The first instrument matching a predicate, from GET /instruments. */
export async function findInstrument(
  api: Api,
  pred: (i: Record<string, unknown>) => boolean,
): Promise<
  Record<string, never> & {
    instrument_token: number;
    tradingsymbol: string;
    exchange: string;
    last_price: number;
    lot_size: number;
    tick_size: number;
    freeze_quantity: number;
    instrument_type: string;
    expiry: string | null;
    strike: number | null;
  }
> {
  const r = await api.call('GET', '/instruments');
  const i = r.body.instruments.find(pred);
  if (!i) throw new Error('no such instrument');
  return i;
}
