import { type Connect, KiteConnect } from 'kiteconnect';
import { type Api, startTestBroker } from '../test-helpers';
import type { PaperBrokerOptions } from '../index';

/**
 * Test helpers for the /kite dialect: a real paper broker, Zerodha's official `kiteconnect`
 * client pointed at it, and the login as a Kite app does it (follow the login page's redirect,
 * trade the request token for an access token with the checksum).
 */

export interface KiteTest {
  readonly api: Api;
  readonly port: number;
  /** `http://127.0.0.1:P/kite` */
  readonly root: string;
  /** A client with no token yet. */
  client(): Connect;
  /** Follows the login page (without following its redirect) and returns the Location it answered. */
  loginRedirect(query?: string): Promise<URL>;
  /** A client logged in through the whole flow. */
  login(): Promise<Connect>;
  close(): Promise<void>;
}

/** BUY 1 NSE INFY MIS in Kite's words: the order of tests where the order itself is not the point. */
export const KITE_BUY_INFY = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transaction_type: 'BUY',
  quantity: 1,
  product: 'MIS',
} as const;

/**
 * `placeOrder` params: a LIMIT BUY 1 NSE INFY MIS at 1450, overridden by `o` (which may carry
 * Kite's newer fields, such as `market_protection`, that the client's types do not list yet).
 */
export function placeParams(o: Record<string, unknown> = {}): Parameters<Connect['placeOrder']>[1] {
  const p: Record<string, unknown> = { ...KITE_BUY_INFY, order_type: 'LIMIT', price: 1450, ...o };
  return p as Parameters<Connect['placeOrder']>[1];
}

/** Kite's limits raised out of the way, for tests that are not about them. */
export const NO_KITE_LIMITS = {
  quotePerSecond: 10_000,
  historicalPerSecond: 10_000,
  ordersPerSecond: 10_000,
  ordersPerMinute: 600_000,
  ordersPerDay: 10_000_000,
  defaultPerSecond: 10_000,
};

/** Starts a paper broker for a /kite test, with Kite's limits out of the way unless `opts` sets them. */
export async function startKiteTest(opts: PaperBrokerOptions = {}): Promise<KiteTest> {
  const api = await startTestBroker({ kiteRates: NO_KITE_LIMITS, ...opts });
  const port = api.broker.port;
  const root = `http://127.0.0.1:${port}/kite`;
  const client = (): Connect => new KiteConnect({ api_key: 'paper', root });
  const loginRedirect = async (query = ''): Promise<URL> => {
    const r = await fetch(`${root}/connect/login?v=3&api_key=paper${query}`, { redirect: 'manual' });
    if (r.status !== 302) throw new Error(`login page answered ${r.status}: ${await r.text()}`);
    return new URL(r.headers.get('location') ?? '');
  };
  return {
    api,
    port,
    root,
    client,
    loginRedirect,
    async login() {
      const kc = client();
      const rt = (await loginRedirect()).searchParams.get('request_token') ?? '';
      await kc.generateSession(rt, opts.apiSecret ?? 'paper');
      return kc;
    },
    close: () => api.close(),
  };
}
