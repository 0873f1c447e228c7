import { join } from 'node:path';
import type { BrokerProfile } from '@shared/domain/session';
import type { Tick } from '@shared/domain/market';
import type { TradingCore } from '../core/trading-core';
import type { RateLimit } from '../broker/http/token-bucket';
import type { CoreSeams } from '../core/core-seams';
import { MemoryVault, type SecretVault } from '../core/session/secret-vault';
import type { Handlers } from './dispatcher';
import type { FaultConfig } from '../paper';
import { startEmbeddedPaper, type EmbeddedPaper } from './embedded-paper';
import type { MarketClockSpec } from '../paper/market-clock';
import { EventHub } from './event-hub';
import { marketHandlers } from './handlers/market-handlers';
import { orderHandlers } from './handlers/order-handlers';
import { portfolioHandlers } from './handlers/portfolio-handlers';
import { alertHandlers } from './handlers/alert-handlers';
import { driftHandlers } from './handlers/drift-handlers';
import { gttHandlers } from './handlers/gtt-handlers';
import { safetyHandlers } from './handlers/safety-handlers';
import { squareOffHandlers } from './handlers/square-off-handlers';
import { updateHandlers } from './handlers/update-handlers';
import { newUpdateNotice, type UpdateNotice } from './support/update-notice';
import { SquareOffHost } from './square-off/square-off-host';
import type { PriceAlert } from '@shared/domain/alert';
import { deskAlerts, type DeskAlerts } from './alerts/desk-alerts';
import type { AlertBook } from './alerts/alert-book';
import { coreEvents } from './core-events';
import { sessionHandlers } from './handlers/session-handlers';
import { TickBatcher } from '../broker/stream/tick-batcher';
import { OrdersChangedBatcher } from './orders-changed-batcher';
import { SubscriptionRegistry } from './market/subscription-registry';
import { ActiveCore } from './session/active-core';
import { BROKERS, type BrokerRegistry, type CommandLineProfile } from './session/broker-registry';
import { LoginPageFlow } from './session/login-page';
import { vaultKeyOf } from './session/profile-target';
import { SettingsStore, storedMtm, storedRisk } from './settings/settings-store';
import { journalHandlers } from './handlers/journal-handlers';
import { bracketHandlers } from './handlers/bracket-handlers';
import { JournalService } from './journal/journal-service';
import { deskHandlers } from './handlers/desk-handlers';
import { Workstation } from './workstation/workstation';

/** The loopback port of Kite's redirect unless configured: `http://127.0.0.1:5174/kite/callback`. */
export const DEFAULT_KITE_REDIRECT_PORT = 5174;

/**
 * How the app is configured at start; the same for Electron and the browser host.
 */
export interface AppConfig {
  /** The app's data folder: intents ledger, embedded paper broker journal, settings. */
  readonly dataDir: string;
  /** A remote broker; absent → start the embedded paper broker on a random loopback port. */
  readonly brokerUrl?: string;
  /**
   * The kind of broker `brokerUrl` is (default `rest`, docs/api.md; `kite`, docs/kite.md): one
   * the broker registry lets the command line name.
   */
  readonly broker?: string;
  /** The broker kinds the desk offers (default: the ones it ships, `BROKERS`; tests add a fake one). */
  readonly brokers?: BrokerRegistry;
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** A Kite access token for the day (instead of logging in through Kite's page). */
  readonly accessToken?: string;
  /**
   * The loopback port of a broker login page's redirect (Kite's `http://127.0.0.1:PORT/kite/callback`),
   * as registered in the broker's app (default 5174; 0 = any free port, tests).
   */
  readonly kiteRedirectPort?: number;
  /** Opens Kite's login page in a window of main's own (Electron); absent → the renderer opens a tab. */
  readonly openLoginWindow?: (url: string, callbackUrl: string) => void;
  /**
   * Shows a fired alert as the operating system's notification, for alerts that ask for one
   * (docs/contract.md §Alert notifications). Electron's `Notification` in the app; absent in the
   * browser host, which has none. Must not throw.
   */
  readonly notifyOs?: (alert: PriceAlert) => void;
  /**
   * Shows the square-off's warning as the operating system's notification, window shown or not
   * (docs/contract.md §Risk guard). Absent in the browser host. Must not throw.
   */
  readonly notifyOsText?: (text: { readonly title: string; readonly body: string }) => void;
  /**
   * The update feed and the running version (the Electron app, `TRADEDESK_UPDATE_FEED`): main
   * reads it at start and every few hours for the header's notice. Absent → no notice.
   */
  readonly updates?: { readonly feedUrl: string; readonly currentVersion: string };
  /** Options for the embedded paper broker (tests and demos). */
  readonly paper?: {
    readonly control?: boolean;
    readonly faults?: string | FaultConfig;
    readonly seed?: number;
    readonly rate?: RateLimit;
    readonly tickIntervalMs?: number;
    /** Start on a damaged journal by moving the damage aside (`--paper-repair`; docs/api.md §Persistence). */
    readonly repair?: boolean;
    /** The paper market's clock (`--paper-clock`; docs/api.md §Sessions and the calendar). */
    readonly marketClock?: MarketClockSpec;
  };
  /**
   * The bundled paper broker worker (out/paper-worker.mjs): the embedded paper broker then runs
   * in a worker thread, off the loop that serves the bridge. Absent: in this thread (tests).
   */
  readonly paperWorker?: string;
  /** Where secrets live; default in memory only (Electron passes its safeStorage vault). */
  readonly vault?: SecretVault;
  /** Every core's seams (tests: client rate, backoff, timeouts, stream off…; `core-seams.ts`). */
  readonly core?: CoreSeams;
  /**
   * Shortest gap between two `market.ticks` events (default 100 ms, latest tick per
   * instrument). 0 sends one event per tick: only the benchmark's baseline wants that.
   */
  readonly tickBatchMs?: number;
  /** Where to report start-up problems (default console.error); never given secrets. */
  readonly log?: (message: string) => void;
  /**
   * Who opens the desk's windows: `main` in Electron (its shell mirrors the desk's windows), the
   * main `page` in the browser host (default). docs/workstation.md §Windows.
   */
  readonly windowsOpenedBy?: 'main' | 'page';
  /** How long a browser pop-out's page may be gone before its window counts as closed (default 3 s; tests). */
  readonly popoutGraceMs?: number;
}

/** The main-process services, hosted by Electron or by the browser host alike. */
export interface AppServices {
  readonly handlers: Handlers;
  readonly events: EventHub;
  /** The embedded paper broker's base URL (…/v1), or null when a remote broker is used. */
  readonly paperUrl: string | null;
  /** The embedded paper broker's control secret (`X-Paper-Control`), or null without its control interface. */
  readonly paperControlSecret: string | null;
  /** The desk's windows and panels: the transports tell it which page draws which window. */
  readonly workstation: Workstation;
  close(): Promise<void>;
}

/** The profile the command line or environment configured (docs/session.md §Starting on a broker). */
function configuredProfile(brokers: BrokerRegistry, broker: string, c: CommandLineProfile): BrokerProfile {
  const profile = brokers.commandLineProfile(broker, c);
  if (!profile)
    throw new Error(`broker must be one of ${brokers.commandLineNames().join(', ')}, not ${broker.slice(0, 40)}`);
  return profile;
}

/**
 * The profile to start on: the last remote one if the user asked to remember its secret (and
 * the vault could keep it, as its kind needs: docs/session.md §Remembered sessions), else the
 * embedded paper broker.
 */
async function rememberedProfile(
  brokers: BrokerRegistry,
  settings: SettingsStore,
  vault: SecretVault,
): Promise<BrokerProfile> {
  const saved = (await settings.read()).profile;
  if (saved === undefined || saved.kind === 'paper') return { kind: 'paper' };
  const key = vaultKeyOf(saved, brokers.defaultUrlOf(saved.kind));
  const [apiSecret, accessToken] = await Promise.all([vault.get(`${key}:secret`), vault.get(`${key}:token`)]);
  const secrets = { ...(apiSecret ? { apiSecret } : {}), ...(accessToken ? { accessToken } : {}) };
  return brokers.remembered(saved, secrets) ?? { kind: 'paper' };
}

/** What a profile's core is readied with before it logs in. */
interface CoreReadiness {
  readonly settings: SettingsStore;
  readonly alerts: DeskAlerts;
  readonly squareOff: SquareOffHost;
  readonly workstation: Workstation;
  readonly journal: JournalService;
}

/**
 * Readies a profile's core before it logs in: its risk limits are in force before its first
 * order (docs/contract.md §Risk guard), its MTM levels, alerts, square-off, desk and journal are its own.
 */
async function prepareCore(core: TradingCore, parts: CoreReadiness): Promise<void> {
  const { settings, alerts } = parts;
  const read = await settings.read();
  const stored = storedRisk(read, core.profileKey);
  core.risk.setLimits(stored.limits);
  core.risk.restoreLossReached(stored.lossReachedOn);
  alerts.studies.clear();
  core.mtm.setSettings(storedMtm(read, core.profileKey));
  core.mtm.restoreTrigger(read.mtmTriggered?.[core.profileKey] ?? null);
  await alerts.book.load(core.profileKey);
  core.mtm.wantFigure(alerts.mtmWanted());
  parts.squareOff.use(core);
  await parts.workstation.use(core.profileKey);
  await parts.journal.load(core.profileKey, () => ({
    broker: core.broker,
    find: (exchange, symbol) => core.catalog.find(exchange, symbol),
  }));
}

/** The embedded paper broker, started on first use: a remote broker's desk never starts it. */
function lazyPaper(
  config: AppConfig,
  log: (message: string) => void,
): { url(): Promise<string>; started(): EmbeddedPaper | null } {
  let paper: EmbeddedPaper | null = null;
  let paperStarting: Promise<EmbeddedPaper> | null = null;
  return {
    url: async () => {
      paperStarting ??= startEmbeddedPaper(
        { port: 0, dataDir: join(config.dataDir, 'paper'), ...config.paper },
        config.paperWorker,
        log,
      ).then((p) => (paper = p));
      return (await paperStarting).url;
    },
    started: () => paper,
  };
}

/** The desk's windows and panels, switched to the profile's desk at each login (docs/workstation.md). */
function deskWorkstation(
  config: AppConfig,
  p: {
    readonly settings: SettingsStore;
    readonly events: EventHub;
    readonly registry: SubscriptionRegistry;
    /** Streams the union of main's and the windows' subscriptions again. */
    readonly resubscribe: () => void;
    readonly log: (message: string) => void;
  },
): Workstation {
  return new Workstation({
    settings: p.settings,
    opener: config.windowsOpenedBy ?? 'page',
    changed: (view) => p.events.emit('desk.changed', view),
    // A window that left the desk no longer watches anything (its panels' owners are `ui:<window>/…`).
    windowsGone: (ids) => {
      let dropped = false;
      for (const id of ids) dropped = p.registry.dropOwners(`ui:${id}/`) || dropped;
      if (dropped) p.resubscribe();
    },
    ...(config.popoutGraceMs !== undefined ? { graceMs: config.popoutGraceMs } : {}),
    log: p.log,
  });
}

/**
 * Ticks to the page: the latest per instrument every `everyMs`, or (at 0) one event per tick.
 * `lastOf` is the last tick main holds of each instrument, for a page that subscribes to what
 * main already streams (the broker then sends no snapshot of its own); `forget` at a new session.
 */
function pageTicks(
  events: EventHub,
  everyMs: number,
): { push(tick: Tick): void; lastOf(tokens: readonly number[]): Tick[]; forget(): void; close(): void } {
  const batcher = everyMs > 0 ? new TickBatcher((ticks) => events.emit('market.ticks', { ticks }), { everyMs }) : null;
  const latest = new Map<number, Tick>();
  return {
    push: (tick) => {
      latest.set(tick.instrumentToken, tick);
      if (batcher) batcher.push(tick);
      else events.emit('market.ticks', { ticks: [tick] });
    },
    lastOf: (tokens) => tokens.flatMap((token) => latest.get(token) ?? []),
    forget: () => latest.clear(),
    close: () => batcher?.close(),
  };
}

/** The square-off at a time, one per logged-in core, its warning also the OS's (docs/contract.md §Risk guard). */
function squareOffHost(config: AppConfig, settings: SettingsStore, events: EventHub): SquareOffHost {
  return new SquareOffHost({
    settings,
    onChange: (state) => events.emit('squareOff.changed', state),
    onWarning: (text) =>
      void Promise.resolve(text)
        .then(config.notifyOsText)
        .catch(() => undefined),
  });
}

/** Logs in at start: the configured profile, or the remembered one, else the embedded paper broker. */
async function loginAtStart(
  config: AppConfig,
  p: {
    readonly brokers: BrokerRegistry;
    readonly settings: SettingsStore;
    readonly vault: SecretVault;
    readonly active: ActiveCore;
    readonly paperUrl: () => Promise<string>;
    readonly log: (message: string) => void;
  },
): Promise<void> {
  const initial: BrokerProfile = config.brokerUrl
    ? configuredProfile(p.brokers, config.broker ?? 'rest', { ...config, brokerUrl: config.brokerUrl })
    : await rememberedProfile(p.brokers, p.settings, p.vault);
  if (!config.brokerUrl) await p.paperUrl();
  try {
    await p.active.login(initial);
  } catch (err) {
    p.log(
      `Tradedesk could not log in to ${initial.kind === 'paper' ? 'the paper broker' : 'the configured broker'}: ${err instanceof Error ? err.message : 'unknown error'}`,
    );
  }
}

/** The parts of the app the contract's channels are served by. */
interface ChannelParts {
  readonly active: ActiveCore;
  readonly settings: SettingsStore;
  readonly brokers: BrokerRegistry;
  readonly loginPage: LoginPageFlow;
  readonly registry: SubscriptionRegistry;
  /** The last tick main holds of each of these instruments (`pageTicks`). */
  readonly lastTicks: (tokens: readonly number[]) => Tick[];
  readonly workstation: Workstation;
  readonly squareOff: SquareOffHost;
  readonly updates: UpdateNotice | null;
  readonly alerts: AlertBook;
  readonly journal: JournalService;
  readonly events: EventHub;
  /** A page said the main window's first screen has painted (`desk.firstScreen`). */
  readonly firstScreenDrawn: () => void;
}

/**
 * The first screen of this run's main window, drawn (`desk.firstScreen`): each session's drift
 * check at login waits for it, at most a few seconds (docs/live-data.md §The first screen first).
 * Once drawn it stays so: a later login does not wait for a window already open.
 */
function firstScreenSignal(): { readonly drawn: Promise<void>; readonly tell: () => void } {
  let tell!: () => void;
  const drawn = new Promise<void>((resolve) => (tell = resolve));
  return { drawn, tell };
}

/** One handler per contract channel: this does not compile until every channel has one. */
function channelHandlers(p: ChannelParts): Handlers {
  return {
    ...sessionHandlers(p.active, p.settings, p.brokers, p.loginPage),
    ...marketHandlers(p.active, p.registry, (caller) => p.workstation.windowOf(caller), p.lastTicks),
    ...orderHandlers(p.active),
    ...portfolioHandlers(p.active),
    ...safetyHandlers(p.active, p.settings),
    ...squareOffHandlers(p.squareOff),
    ...updateHandlers(p.updates),
    ...driftHandlers(p.active),
    ...gttHandlers(p.active),
    ...alertHandlers(p.active, p.alerts),
    ...journalHandlers(p.journal),
    ...bracketHandlers(p.active),
    ...deskHandlers(p.workstation, p.events, p.firstScreenDrawn),
  };
}

/**
 * Composes the main process: vault, settings, the embedded paper broker when no remote one is
 * configured, the active trading core (logged in before the first handler runs; intents left
 * open by a crash are looked up in the background) and one handler per contract channel.
 *
 * A failed initial login does not stop the app: it starts logged out and the renderer shows
 * the login screen with `session.status`.
 */
export async function createAppServices(config: AppConfig): Promise<AppServices> {
  const events = new EventHub();
  const brokers = config.brokers ?? BROKERS;
  const log = config.log ?? ((m: string) => console.error(m));
  const vault = config.vault ?? new MemoryVault();
  const settings = new SettingsStore(join(config.dataDir, 'settings.json'));
  const registry = new SubscriptionRegistry();
  // Declared before the core: a login switches to the profile's desk.
  let resubscribe = (): void => undefined;
  /** Replaces main's own subscription under `owner`: the core streams the union with the windows'. */
  const watch = (owner: string, tokens: readonly number[]): void => {
    registry.set(owner, tokens);
    resubscribe();
  };
  const workstation = deskWorkstation(config, { settings, events, registry, resubscribe: () => resubscribe(), log });
  const ticks = pageTicks(events, config.tickBatchMs ?? 100);

  // The trader's journal, one database per profile, opened at login (docs/journal.md).
  const journal = new JournalService({
    dataDir: config.dataDir,
    log,
    onChanged: () => events.emit('journal.changed', {}),
  });
  const paper = lazyPaper(config, log);

  const squareOff = squareOffHost(config, settings, events);

  // Declared before the core: its ticks reach the alerts from the first one.
  const alerts = deskAlerts({ settings, events, current: () => active.current(), watch, notifyOs: config.notifyOs });
  const onTick = (tick: Tick): void => {
    alerts.book.onTick(tick);
    ticks.push(tick);
  };

  // Updates are announced in the header, never forced (docs/architecture.md §Release).
  const updates = config.updates ? newUpdateNotice(config.updates, (s) => events.emit('updates.changed', s)) : null;
  void updates?.start();

  // Bursts of order changes cross the bridge as one delta per 50 ms, the first at once.
  const ordersChanged = new OrdersChangedBatcher((delta) => events.emit('orders.changed', delta));

  const firstScreen = firstScreenSignal();
  const active = new ActiveCore({
    brokers,
    paperUrl: paper.url,
    prepare: (core) => {
      ticks.forget(); // a new session's prices are its broker's own
      return prepareCore(core, { settings, alerts, squareOff, workstation, journal });
    },
    notice: (m) => log(`Not remembering the session: ${m}`),
    ...(config.core ? { seams: config.core } : {}),
    options: () => ({
      vault,
      dataDir: config.dataDir,
      events: coreEvents({ events, settings, journal, ordersChanged, onTick, watch }),
      firstScreen: firstScreen.drawn,
    }),
  });

  resubscribe = () => {
    const union = registry.subscriptions();
    active.subscribe(union.tokens, union.modes);
  };

  await loginAtStart(config, { brokers, settings, vault, active, paperUrl: paper.url, log });

  const loginPage = new LoginPageFlow({
    brokers,
    port: config.kiteRedirectPort ?? DEFAULT_KITE_REDIRECT_PORT,
    ...(config.openLoginWindow ? { open: config.openLoginWindow } : {}),
    complete: async (profile, requestToken, remember, redirectUrl) => {
      await active.login(profile, remember, requestToken, redirectUrl);
      await settings.update((s) => ({ ...s, profile: brokers.stored(profile) }));
    },
  });

  const handlers = channelHandlers({
    active,
    settings,
    brokers,
    loginPage,
    registry,
    lastTicks: (tokens) => ticks.lastOf(tokens),
    workstation,
    squareOff,
    updates,
    alerts: alerts.book,
    journal,
    events,
    firstScreenDrawn: firstScreen.tell,
  });

  return {
    handlers,
    events,
    get paperUrl() {
      return paper.started()?.url ?? null;
    },
    get paperControlSecret() {
      return paper.started()?.controlSecret ?? null;
    },
    workstation,
    close: async () => {
      await workstation.close();
      // A fired alert's save still running: a restart must find it fired (docs/contract.md §Price alerts).
      await alerts.book.idle();
      squareOff.close();
      updates?.close();
      ticks.close();
      ordersChanged.close();
      await loginPage.close();
      await journal.close();
      await active.close();
      await paper.started()?.close();
    },
  };
}
