import type { Instrument } from '../../shared/domain/instrument';
import type { SessionInfo } from '../../shared/domain/session';
import { AppError } from './app-error';
import { EventHub } from './event-hub';
import type { Handlers } from '../main/ipc/dispatcher';

/**
 * How the app is configured at start; the same for Electron and the browser host.
 */
export interface AppConfig {
  /** The app's data folder: intents ledger, embedded paper broker journal, settings. */
  readonly dataDir: string;
  /** A remote REST broker; absent → start the embedded paper broker on a random loopback port. */
  readonly brokerUrl?: string;
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** Options for the embedded paper broker (tests and demos). */
  readonly paper?: { readonly control?: boolean; readonly faults?: string; readonly seed?: number };
}

/** The main-process services, hosted by Electron or by the browser host alike. */
export interface AppServices {
  readonly handlers: Handlers;
  readonly events: EventHub;
  /** The embedded paper broker's base URL (…/v1), or null when a remote broker is used. */
  readonly paperUrl: string | null;
  close(): Promise<void>;
}

/**
 * STAND-IN (walking skeleton): serves a fixed instrument list until the paper broker and the
 * trading core land; replaced by the real composition, not kept.
 */
export async function createAppServices(_config: AppConfig): Promise<AppServices> {
  const events = new EventHub();
  const session: SessionInfo = {
    state: 'connected',
    broker: 'paper',
    brokerLabel: 'Paper broker',
    userId: 'PAPER01',
    scope: 'trade',
    expiresAt: null,
  };
  const instruments: Instrument[] = [
    { instrumentToken: 256265, exchange: 'NSE', tradingsymbol: 'INFY', name: 'INFOSYS', segment: 'NSE', instrumentType: 'EQ', lotSize: 1, tickSize: 0.05, freezeQuantity: 100000, expiry: null, strike: null, lastPrice: 1500 },
  ];
  const notYet = async (): Promise<never> => {
    throw new AppError({ kind: 'internal', message: 'Not available in the walking skeleton' });
  };
  const handlers: Handlers = {
    'session.status': async () => session,
    'session.login': async () => session,
    'session.logout': async () => session,
    'connection.status': async () => ({ rest: 'up', stream: 'closed', detail: null }),
    'instruments.list': async () => instruments,
    'candles.get': notYet,
    'market.subscribe': notYet,
    'orders.place': notYet,
    'orders.modify': notYet,
    'orders.cancel': notYet,
    'orders.list': notYet,
    'orders.get': notYet,
    'orders.history': notYet,
    'trades.list': notYet,
    'positions.list': notYet,
    'holdings.list': notYet,
    'funds.get': notYet,
    'margins.order': notYet,
  };
  return { handlers, events, paperUrl: null, close: async () => {} };
}
