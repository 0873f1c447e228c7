import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Instrument } from '@shared/domain/instrument';
import type { Order, OrderRequest } from '@shared/domain/order';
import { roundToTick } from '@shared/trading/money';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../../paper';
import { MemoryVault } from '../session/secret-vault';
import { restAdapter } from '../../broker/rest/rest-adapter';
import type { CoreSeams } from '../core-seams';
import { TradingCore, type TradingCoreOptions } from '../trading-core';

/** Fast backoffs for tests: the same algorithm, smaller numbers. */
export const FAST_BACKOFF = { baseMs: 5, capMs: 100, maxRetries: 12 } as const;

/** What a test may change of a core: any option, and any seam (`core-seams.ts`). */
export type CoreOverrides = Partial<TradingCoreOptions> & CoreSeams;

/**
 * Test-only (and the benchmarks'): a real paper broker on loopback plus a trading core logged in
 * to it, in a fresh temporary data folder. Tests talk to a real server with real faults, never
 * to mocks.
 */
export interface CoreFixture {
  readonly paper: PaperBroker;
  readonly dir: string;
  newCore(overrides?: CoreOverrides): Promise<TradingCore>;
  close(): Promise<void>;
}

/** Starts the paper broker (no ticks unless asked) and returns a factory for cores. */
export async function startCoreFixture(paperOptions: PaperBrokerOptions = {}): Promise<CoreFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'td-core-'));
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, ...paperOptions });
  const cores: TradingCore[] = [];
  return {
    paper,
    dir,
    async newCore(overrides = {}) {
      const core = await createCore(paper.url, dir, { readBackoff: FAST_BACKOFF, ...overrides });
      cores.push(core);
      return core;
    },
    async close() {
      for (const c of cores) await c.close().catch(() => undefined);
      await paper.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A trading core on the broker at `baseUrl` (not started): the REST adapter, logged in with the
 * paper broker's credentials, secrets in memory, no stream and no drift checks of its own, the
 * app's defaults for the rest unless overridden. The fixture above and the orders benchmark build
 * their cores with it.
 */
export function createCore(baseUrl: string, dataDir: string, overrides: CoreOverrides = {}): Promise<TradingCore> {
  const options: Record<string, unknown> = {};
  const seams: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) (key in OPTION_KEYS ? options : seams)[key] = value;
  return TradingCore.create(
    {
      baseUrl,
      adapter: restAdapter,
      target: { broker: 'paper', label: 'Paper broker', vaultKey: 'paper' },
      credentials: { apiKey: 'paper', apiSecret: 'paper' },
      vault: new MemoryVault(),
      dataDir,
      ...(options as Partial<TradingCoreOptions>),
    },
    { stream: false, drift: false, ...(seams as CoreSeams) },
  );
}

/** Every option of `TradingCoreOptions`: a new one does not compile until it is here, so none is taken for a seam. */
const OPTION_KEYS: Readonly<Record<keyof TradingCoreOptions, true>> = {
  baseUrl: true,
  adapter: true,
  ipv4Only: true,
  target: true,
  credentials: true,
  vault: true,
  dataDir: true,
  events: true,
  sessionVersions: true,
  firstScreen: true,
};

/** A MARKET buy of one lot of the first NSE equity: valid under every trading rule. */
export function marketBuy(instruments: readonly Instrument[]): OrderRequest {
  const eq = instruments.find((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ');
  if (!eq) throw new Error('paper universe has no NSE equity');
  return marketBuyOf(eq);
}

/** A MARKET buy (MIS, DAY) of `quantity` of `i`, one lot unless told. */
export function marketBuyOf(
  i: Pick<Instrument, 'exchange' | 'tradingsymbol' | 'lotSize'>,
  quantity: number = i.lotSize,
): OrderRequest {
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transactionType: 'BUY',
    quantity,
    orderType: 'MARKET',
    product: 'MIS',
    validity: 'DAY',
  };
}

/**
 * A BUY LIMIT of 2 of an NSE equity priced over ₹500, 5% under its price, placed straight at the
 * broker (not through the order service) under a reference starting `refPrefix`: it rests OPEN,
 * for a test to modify, cancel or read back. With the order as the broker lists it, its instrument.
 */
export async function restingAtBroker(core: TradingCore, refPrefix: string): Promise<{ order: Order; eq: Instrument }> {
  const eq = (await core.broker.listInstruments('NSE')).find((i) => i.instrumentType === 'EQ' && i.lastPrice > 500);
  if (!eq) throw new Error('no NSE equity over ₹500');
  const ack = await core.broker.placeOrder({
    exchange: 'NSE',
    tradingsymbol: eq.tradingsymbol,
    transactionType: 'BUY',
    quantity: 2,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: roundToTick(eq.lastPrice * 0.95, eq.tickSize),
    clientOrderId: `${refPrefix}-${Math.random().toString(36).slice(2, 10)}`,
  });
  return { order: await core.broker.getOrder(ack.orderId), eq };
}

/**
 * A BUY LIMIT of 1 (MIS, DAY) 3% under `lastPrice` (the instrument's own unless given), on its
 * tick: it rests, OPEN — what the kill switch and the cancel tests have to cancel.
 */
export function restingBuy(
  i: Pick<Instrument, 'exchange' | 'tradingsymbol' | 'lastPrice' | 'tickSize'>,
  lastPrice: number = i.lastPrice,
): OrderRequest {
  const price = Math.floor((lastPrice * 0.97) / i.tickSize) * i.tickSize;
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transactionType: 'BUY',
    quantity: 1,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: Number(price.toFixed(2)),
  };
}

/** Runs `count` jobs with at most `concurrency` in flight; returns settled results in order. */
export async function pool<T>(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const out: PromiseSettledResult<T>[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      try {
        out[i] = { status: 'fulfilled', value: await job(i) };
      } catch (reason) {
        out[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}
