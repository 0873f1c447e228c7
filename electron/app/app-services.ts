import { join } from 'node:path';
import type { BrokerProfile } from '@shared/domain/session';
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
import { newUpdateNotice } from './support/update-notice';
import { SquareOffHost } from './square-off/square-off-host';
import type { PriceAlert } from '@shared/domain/alert';
import { AlertBook } from './alerts/alert-book';
import { AlertOrders } from './alerts/alert-orders';
import { StudyFeed } from './alerts/study-feed';
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
  const workstation = new Workstation({
    settings,
    opener: config.windowsOpenedBy ?? 'page',
    changed: (view) => events.emit('desk.changed', view),
    // A window that left the desk no longer watches anything (its panels' owners are `ui:<window>/…`).
    windowsGone: (ids) => {
      let dropped = false;
      for (const id of ids) dropped = registry.dropOwners(`ui:${id}/`) || dropped;
      if (dropped) resubscribe();
    },
    ...(config.popoutGraceMs !== undefined ? { graceMs: config.popoutGraceMs } : {}),
    log,
  });
  const batchMs = config.tickBatchMs ?? 100;
  const batcher =
    batchMs > 0 ? new TickBatcher((ticks) => events.emit('market.ticks', { ticks }), { everyMs: batchMs }) : null;

  // Declared before the core: its ticks reach the book from the first one.
  let alerts: AlertBook | null = null;
  /** Whether an active alert watches the day's MTM (the MTM guard keeps measuring for it). */
  let mtmAlerts = false;
  // The bars of study alerts (docs/contract.md §Alerts that place orders), read from the current broker.
  const studies = new StudyFeed({
    candles: (token, interval) => active.current().broker.getCandles(token, { interval }),
  });
  // The trader's journal, one database per profile, opened at login (docs/journal.md).
  const journal = new JournalService({
    dataDir: config.dataDir,
    log,
    onChanged: () => events.emit('journal.changed', {}),
  });

  let paper: EmbeddedPaper | null = null;
  let paperStarting: Promise<EmbeddedPaper> | null = null;
  const paperUrl = async (): Promise<string> => {
    paperStarting ??= startEmbeddedPaper(
      { port: 0, dataDir: join(config.dataDir, 'paper'), ...config.paper },
      config.paperWorker,
      log,
    ).then((p) => (paper = p));
    return (await paperStarting).url;
  };

  // Updates are announced in the header, never forced (docs/architecture.md §Release).
  const updates = config.updates ? newUpdateNotice(config.updates, (s) => events.emit('updates.changed', s)) : null;
  void updates?.start();

  // The square-off at a time, one per logged-in core (docs/contract.md §Risk guard).
  const squareOff = new SquareOffHost({
    settings,
    onChange: (state) => events.emit('squareOff.changed', state),
    onWarning: (text) =>
      void Promise.resolve(text)
        .then(config.notifyOsText)
        .catch(() => undefined),
  });

  // Bursts of order changes cross the bridge as one delta per 50 ms, the first at once.
  const ordersChanged = new OrdersChangedBatcher((delta) => events.emit('orders.changed', delta));

  const active = new ActiveCore({
    brokers,
    paperUrl,
    // The profile's risk limits are in force before its first order (docs/contract.md §Risk guard).
    prepare: async (core) => {
      const read = await settings.read();
      const stored = storedRisk(read, core.profileKey);
      core.risk.setLimits(stored.limits);
      core.risk.restoreLossReached(stored.lossReachedOn);
      studies.clear();
      core.mtm.setSettings(storedMtm(read, core.profileKey));
      core.mtm.restoreTrigger(read.mtmTriggered?.[core.profileKey] ?? null);
      await alerts?.load(core.profileKey);
      core.mtm.wantFigure(mtmAlerts);
      squareOff.use(core);
      await workstation.use(core.profileKey);
      await journal.load(core.profileKey, () => ({
        broker: core.broker,
        find: (exchange, symbol) => core.catalog.find(exchange, symbol),
      }));
    },
    notice: (m) => log(`Not remembering the session: ${m}`),
    ...(config.core ? { seams: config.core } : {}),
    options: () => ({
      vault,
      dataDir: config.dataDir,
      events: {
        onSession: (info) => events.emit('session.changed', info),
        onSessionExpired: (reason, version) => events.emit('session.expired', { reason, version }),
        onConnection: (state) => events.emit('connection.changed', state),
        onOrdersChanged: (delta) => {
          ordersChanged.push(delta);
          // A fill: the journal reads the trade book shortly, and takes the chart at an exit.
          if (delta.upserts.some((o) => o.filledQuantity > 0)) journal.fillsArrived();
        },
        onPlacements: (placements) => events.emit('placements.changed', { placements }),
        onUsage: (usage) => events.emit('usage.changed', usage),
        onSafety: (run) => events.emit('safety.progress', run),
        onDrift: (status) => events.emit('drift.changed', status),
        onBrackets: (brackets) => events.emit('brackets.changed', { brackets }),
        // Main's own subscription, like the alerts': a trailing stop moves with the window hidden.
        onBracketWatch: (tokens) => {
          registry.set('main:brackets', [...tokens]);
          const union = registry.subscriptions();
          active.subscribe(union.tokens, union.modes);
        },
        onMtm: (status) => events.emit('mtm.changed', status),
        // Main's own subscription: the day's MTM is measured with the window hidden.
        onMtmWatch: (tokens) => {
          registry.set('main:mtm', [...tokens]);
          const union = registry.subscriptions();
          active.subscribe(union.tokens, union.modes);
        },
        onMtmTrigger: (key, trigger) =>
          void settings
            .update((s) => {
              const kept = { ...s.mtmTriggered };
              if (trigger) kept[key] = trigger;
              else delete kept[key];
              return { ...s, mtmTriggered: kept };
            })
            .catch(() => undefined),
        onLossReached: (key, date) =>
          void settings
            .update((s) => ({ ...s, risk: { ...s.risk, [key]: { ...storedRisk(s, key), lossReachedOn: date } } }))
            .catch(() => undefined),
        onTick: (tick) => {
          alerts?.onTick(tick);
          if (batcher) batcher.push(tick);
          else events.emit('market.ticks', { ticks: [tick] });
        },
      },
    }),
  });

  resubscribe = () => {
    const union = registry.subscriptions();
    active.subscribe(union.tokens, union.modes);
  };

  // A fired alert's orders go through the one placement gate, judged by the risk guard as they go.
  const alertOrders = new AlertOrders({
    place: (order, requestId) => active.current().orders.place(order, { requestId, clickedAt: Date.now() }),
    read: (orderId) => active.current().broker.getOrder(orderId, { urgent: true }),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
  });
  alerts = new AlertBook({
    settings,
    levelOf: (alert, tick) => studies.level(alert.basis, tick),
    placeOrders: (alert) => alertOrders.fire(alert),
    onOrdered: (alert) => events.emit('alerts.ordered', alert),
    // The day's MTM as the MTM guard measures it; unknown (never fires) while positions are.
    mtmOf: () => {
      try {
        return active.current().mtm.figure();
      } catch {
        return 'unknown'; // logged out: nothing is known
      }
    },
    watchMtm: (on) => {
      mtmAlerts = on;
      try {
        active.current().mtm.wantFigure(on);
      } catch {
        // Logged out: the next core is told at its login (`prepare`).
      }
    },
    watch: (tokens) => {
      registry.set('main:alerts', tokens);
      const union = registry.subscriptions();
      active.subscribe(union.tokens, union.modes);
    },
    onFired: (alert) => {
      events.emit('alerts.fired', alert);
      // The OS notification is the Electron layer's (docs/contract.md §Alert notifications); the
      // browser host has none and the page's toast stays the notification.
      // A notification is a nicety: the page's toast has already told the trader.
      if (alert.notify.os)
        void Promise.resolve(alert)
          .then(config.notifyOs)
          .catch(() => undefined);
    },
    onChanged: (list) => events.emit('alerts.changed', { alerts: list }),
  });
  const alertBook = alerts;

  const initial: BrokerProfile = config.brokerUrl
    ? configuredProfile(brokers, config.broker ?? 'rest', { ...config, brokerUrl: config.brokerUrl })
    : await rememberedProfile(brokers, settings, vault);
  if (!config.brokerUrl) await paperUrl();
  try {
    await active.login(initial);
  } catch (err) {
    log(
      `Tradedesk could not log in to ${initial.kind === 'paper' ? 'the paper broker' : 'the configured broker'}: ${err instanceof Error ? err.message : 'unknown error'}`,
    );
  }

  const loginPage = new LoginPageFlow({
    brokers,
    port: config.kiteRedirectPort ?? DEFAULT_KITE_REDIRECT_PORT,
    ...(config.openLoginWindow ? { open: config.openLoginWindow } : {}),
    complete: async (profile, requestToken, remember, redirectUrl) => {
      await active.login(profile, remember, requestToken, redirectUrl);
      await settings.update((s) => ({ ...s, profile: brokers.stored(profile) }));
    },
  });

  const handlers: Handlers = {
    ...sessionHandlers(active, settings, brokers, loginPage),
    ...marketHandlers(active, registry, (caller) => workstation.windowOf(caller)),
    ...orderHandlers(active),
    ...portfolioHandlers(active),
    ...safetyHandlers(active, settings),
    ...squareOffHandlers(squareOff),
    ...updateHandlers(updates),
    ...driftHandlers(active),
    ...gttHandlers(active),
    ...alertHandlers(active, alertBook),
    ...journalHandlers(journal),
    ...bracketHandlers(active),
    ...deskHandlers(workstation, events),
  };

  return {
    handlers,
    events,
    get paperUrl() {
      return paper?.url ?? null;
    },
    get paperControlSecret() {
      return paper?.controlSecret ?? null;
    },
    workstation,
    close: async () => {
      await workstation.close();
      // A fired alert's save still running: a restart must find it fired (docs/contract.md §Price alerts).
      await alerts?.idle();
      squareOff.close();
      updates?.close();
      batcher?.close();
      ordersChanged.close();
      await loginPage.close();
      await journal.close();
      await active.close();
      await paper?.close();
    },
  };
}
