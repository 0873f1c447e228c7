import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../../paper';
import { createAppServices, type AppConfig, type AppServices } from '../app-services';
import { createDispatcher, type Dispatch } from '../dispatcher';

/**
 * Test-only: main's services as the app starts them (`createAppServices`), logged in to a real
 * paper broker in this process on loopback, in a fresh data folder, called through the
 * dispatcher as the bridge calls them. The paper broker is the test's own (not the embedded
 * one), so the test moves its prices, sets its faults and reads what it holds. CONTRIBUTING.md
 * §Test against main's services.
 */
export interface AppOnPaperOptions {
  /** Names the temporary data folder (`td-<name>-…`). */
  readonly name: string;
  /** The paper broker's options; it does not tick on its own unless told: prices move when the test moves them. */
  readonly paper?: PaperBrokerOptions;
  /** The rest of the app's configuration (core seams, OS notifiers, its log, the login redirect's port). */
  readonly config?: Omit<AppConfig, 'dataDir' | 'brokerUrl' | 'apiKey' | 'apiSecret'>;
  /** Where the dispatcher reports a handler's bug (default console.error). */
  readonly problems?: (message: string, err?: unknown) => void;
  /**
   * Runs with each start of the services (the first and after every `restart`), before anything
   * is dispatched: where a test subscribes to main's events.
   */
  readonly started?: (services: AppServices) => void;
  /** Start prices of NSE instruments by trading symbol, set on the paper broker once logged in. */
  readonly prices?: Readonly<Record<string, number>>;
}

export interface AppOnPaper {
  readonly dir: string;
  readonly paper: PaperBroker;
  /** The running services: another object after `restart`. */
  readonly services: AppServices;
  /** The current services' dispatcher (still the one to call after a `restart`). */
  readonly dispatch: Dispatch;
  /** Every instrument main listed once logged in. */
  readonly instruments: readonly Instrument[];
  /** The instrument token of `tradingsymbol` on `exchange` (NSE unless told); throws for one main did not list. */
  token(tradingsymbol: string, exchange?: string): number;
  /** Moves the paper market's price of an NSE instrument (one tick at `price`). */
  setPrice(tradingsymbol: string, price: number): void;
  /** Closes the services and starts them again on the same data folder and broker: the app restarted. */
  restart(): Promise<AppServices>;
  /** Closes the services and the broker and removes the data folder. */
  close(): Promise<void>;
}

/** Every instrument `dispatch` lists (`instruments.list`), or throws with main's message. */
export async function listInstruments(dispatch: Dispatch, exchange?: string): Promise<Instrument[]> {
  const list = await dispatch('instruments.list', exchange === undefined ? undefined : { exchange });
  if (!list.ok) throw new Error(list.error.message);
  return list.data as Instrument[];
}

/** Starts a paper broker and main's services on it, logged in; see `AppOnPaperOptions`. */
export async function startAppOnPaper(options: AppOnPaperOptions): Promise<AppOnPaper> {
  // A start that fails at any step closes what it opened before rethrowing: a leftover folder,
  // broker or services would outlive the failed suite and keep the test run from ending.
  const dir = await mkdtemp(join(tmpdir(), `td-${options.name}-`));
  const removeDir = (): Promise<void> => rm(dir, { recursive: true, force: true });
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, ...options.paper }).catch(async (err: unknown) => {
    await removeDir();
    throw err;
  });
  const start = async (): Promise<{ services: AppServices; dispatch: Dispatch }> => {
    const services = await createAppServices({
      ...options.config,
      dataDir: dir,
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
    });
    try {
      options.started?.(services);
    } catch (err) {
      // Still running, they would write to the folder as it is removed and hide this error.
      await services.close();
      throw err;
    }
    const dispatch = createDispatcher(services.handlers, options.problems);
    // As a desk's main window does once its first screen has painted: the login's drift check
    // reads the broker now, not at its 5 s bound in the middle of whichever test runs then
    // (docs/live-data.md §The first screen first).
    await dispatch('desk.firstScreen', undefined);
    return { services, dispatch };
  };
  const removeAll = async (): Promise<void> => {
    await paper.close();
    await removeDir();
  };
  let current = await start().catch(async (err: unknown) => {
    await removeAll();
    throw err;
  });
  const loggedIn = current;
  const ready = async (): Promise<Pick<AppOnPaper, 'instruments' | 'token' | 'setPrice'>> => {
    const instruments = await listInstruments(loggedIn.dispatch);
    const token = (tradingsymbol: string, exchange = 'NSE'): number => {
      const found = instruments.find((i) => i.tradingsymbol === tradingsymbol && i.exchange === exchange);
      if (!found) throw new Error(`the paper broker lists no ${exchange}:${tradingsymbol}`);
      return found.instrumentToken;
    };
    const setPrice = (tradingsymbol: string, price: number): void => paper.setPrice(token(tradingsymbol), price);
    for (const [symbol, price] of Object.entries(options.prices ?? {})) setPrice(symbol, price);
    return { instruments, token, setPrice };
  };
  const { instruments, token, setPrice } = await ready().catch(async (err: unknown) => {
    await loggedIn.services.close();
    await removeAll();
    throw err;
  });
  return {
    dir,
    paper,
    instruments,
    token,
    setPrice,
    get services() {
      return current.services;
    },
    dispatch: (channel, payload, caller) => current.dispatch(channel, payload, caller),
    async restart() {
      await current.services.close();
      current = await start();
      return current.services;
    },
    async close() {
      await current.services.close();
      await removeAll();
    },
  };
}

/**
 * `startAppOnPaper` once for the enclosing `describe` (before its first test; closed after its
 * last). The returned handle is usable inside tests and hooks, not while the suite is collected.
 */
export function useAppOnPaper(options: AppOnPaperOptions): AppOnPaper {
  let app: AppOnPaper | undefined;
  beforeAll(async () => {
    app = await startAppOnPaper(options);
  });
  afterAll(() => app?.close());
  const running = (): AppOnPaper => {
    if (!app) throw new Error('useAppOnPaper: the app starts in beforeAll; use it inside a test or hook');
    return app;
  };
  return {
    get dir() {
      return running().dir;
    },
    get paper() {
      return running().paper;
    },
    get services() {
      return running().services;
    },
    get instruments() {
      return running().instruments;
    },
    dispatch: (channel, payload, caller) => running().dispatch(channel, payload, caller),
    token: (tradingsymbol, exchange) => running().token(tradingsymbol, exchange),
    setPrice: (tradingsymbol, price) => running().setPrice(tradingsymbol, price),
    restart: () => running().restart(),
    close: () => running().close(),
  };
}

/**
 * A dispatcher on `services` that keeps, in `seen`, every reply and every event the renderer
 * could receive, as it would receive them (JSON): what the token and secret canary tests search.
 */
export function recordingDispatch(services: AppServices, seen: string[]): Dispatch {
  services.events.onAny((event, payload) => seen.push(JSON.stringify({ event, payload })));
  const inner = createDispatcher(services.handlers);
  return async (channel, payload, caller) => {
    const reply = await inner(channel, payload, caller);
    seen.push(JSON.stringify(reply));
    return reply;
  };
}
