import { createRequire } from 'node:module';
import path from 'node:path';
import protobuf, { type Type } from 'protobufjs';
import { ApiClient, type SdkError } from 'upstox-js-sdk';
import { type Api, startTestBroker } from '../test-helpers';
import type { PaperBrokerOptions } from '../index';

/**
 * Test helpers for the /upstox dialect: a real paper broker, Upstox's official SDK
 * (`upstox-js-sdk`) pointed at its two hosts, and the login as an Upstox app does it (follow the
 * authorization dialog's redirect, trade the code for an access token).
 */

export const REDIRECT = 'http://127.0.0.1:5999/upstox/callback';

/** The SDK's answer to one call: its parsed model, or its error with the status and Upstox body. */
export type Answer =
  | { ok: true; data: unknown }
  | { ok: false; status: number; body: unknown; headers: Record<string, string | undefined> };

/** Runs one node-style SDK call to its answer. */
export function sdk(run: (cb: (e: SdkError | null, data: unknown) => void) => void): Promise<Answer> {
  return new Promise((resolve) => {
    run((e, data) => {
      if (!e) return resolve({ ok: true, data });
      resolve({
        ok: false,
        status: e.response?.status ?? e.status ?? 0,
        body: e.response?.body,
        headers: e.response?.headers ?? {},
      });
    });
  });
}

/** The data of a successful answer (the test fails with what came back otherwise). */
export function dataOf(a: Answer): Record<string, unknown> {
  if (!a.ok) throw new Error(`expected success, got ${a.status} ${JSON.stringify(a.body)}`);
  return a.data as Record<string, unknown>;
}

/** The first Upstox error code of a failed answer. */
export function codeOf(a: Answer): string | undefined {
  if (a.ok) return undefined;
  const errors = (a.body as { errors?: Array<{ errorCode?: string }> } | undefined)?.errors;
  return errors?.[0]?.errorCode;
}

/** The market feed's message type from the `.proto` the SDK ships, to decode what the feed sends as Upstox's clients do. */
export async function sdkFeedResponse(): Promise<Type> {
  const require = createRequire(import.meta.url);
  const protoPath = path.join(
    path.dirname(require.resolve('upstox-js-sdk/package.json')),
    'dist/feeder/proto/MarketDataFeedV3.proto',
  );
  return (await protobuf.load(protoPath)).lookupType('com.upstox.marketdatafeederv3udapi.rpc.proto.FeedResponse');
}

export interface UpstoxTest {
  readonly api: Api;
  readonly port: number;
  /** `http://127.0.0.1:P/upstox` */
  readonly root: string;
  /** A client with both hosts set and `token` (if any). */
  client(token?: string): ApiClient;
  /** The dialog's redirect: `redirect_uri?code=…&state=…`. */
  authorize(state?: string): Promise<URL>;
  close(): Promise<void>;
}

/** Starts a paper broker for an /upstox test (Upstox's limits out of the way unless `opts` sets them). */
export async function startUpstoxTest(opts: PaperBrokerOptions = {}): Promise<UpstoxTest> {
  const big = { perSecond: 100_000, perMinute: 1_000_000, perHalfHour: 10_000_000 };
  const api = await startTestBroker({ upstoxRates: { orders: big, standard: big }, ...opts });
  const port = api.broker.port;
  const root = `http://127.0.0.1:${port}/upstox`;
  return {
    api,
    port,
    root,
    client(token) {
      const c = new ApiClient();
      c.basePath = root;
      c.orderBasePath = `http://127.0.0.1:${port}/upstox-hft`;
      c.timeout = 10_000;
      if (token !== undefined) c.authentications.OAUTH2.accessToken = token;
      return c;
    },
    async authorize(state) {
      const q = new URLSearchParams({ client_id: 'paper', redirect_uri: REDIRECT, response_type: 'code' });
      if (state !== undefined) q.set('state', state);
      const r = await fetch(`${root}/v2/login/authorization/dialog?${q.toString()}`, { redirect: 'manual' });
      if (r.status !== 302) throw new Error(`dialog answered ${r.status}: ${await r.text()}`);
      return new URL(r.headers.get('location') ?? '');
    },
    close: () => api.close(),
  };
}
