import type { PriceAlert } from '@shared/domain/alert';
import type { TradingCore } from '../../core/trading-core';
import type { EventHub } from '../event-hub';
import type { SettingsStore } from '../settings/settings-store';
import { AlertBook } from './alert-book';
import { AlertOrders } from './alert-orders';
import { StudyFeed } from './study-feed';

/** What the desk's alerts need from the app around them. */
export interface DeskAlertsDeps {
  readonly settings: SettingsStore;
  readonly events: EventHub;
  /** The core in use; throws while nobody is logged in (`ActiveCore.current`). */
  readonly current: () => TradingCore;
  /** Replaces main's own subscription under `owner` (the stream follows the union with the UI's). */
  readonly watch: (owner: string, tokens: readonly number[]) => void;
  /** The OS notification of a fired alert that asks for one (`AppConfig.notifyOs`). */
  readonly notifyOs?: ((alert: PriceAlert) => void) | undefined;
}

/** The alert book, the bars its study alerts are judged on, and whether one watches the day's MTM. */
export interface DeskAlerts {
  readonly book: AlertBook;
  readonly studies: StudyFeed;
  /** Whether an active alert watches the day's MTM (the MTM guard keeps measuring for it). */
  mtmWanted(): boolean;
}

/**
 * The desk's price, study and MTM alerts, wired to whichever core is logged in: their orders go
 * through that core's one placement gate, judged by the risk guard as they go (docs/contract.md
 * §Alerts that place orders).
 */
export function deskAlerts(deps: DeskAlertsDeps): DeskAlerts {
  const { events, current } = deps;
  let mtmAlerts = false;
  // The bars of study alerts (docs/contract.md §Alerts that place orders), read from the current broker.
  const studies = new StudyFeed({
    candles: (token, interval) => current().broker.getCandles(token, { interval }),
  });
  const alertOrders = new AlertOrders({
    place: (order, requestId) => current().orders.place(order, { requestId, clickedAt: Date.now() }),
    read: (orderId) => current().broker.getOrder(orderId, { urgent: true }),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
  });
  const book = new AlertBook({
    settings: deps.settings,
    levelOf: (alert, tick) => studies.level(alert.basis, tick),
    placeOrders: (alert) => alertOrders.fire(alert),
    onOrdered: (alert) => events.emit('alerts.ordered', alert),
    // The day's MTM as the MTM guard measures it; unknown (never fires) while positions are.
    mtmOf: () => {
      try {
        return current().mtm.figure();
      } catch {
        return 'unknown'; // logged out: nothing is known
      }
    },
    watchMtm: (on) => {
      mtmAlerts = on;
      try {
        current().mtm.wantFigure(on);
      } catch {
        // Logged out: the next core is told at its login (`prepare`).
      }
    },
    watch: (tokens) => deps.watch('main:alerts', tokens),
    onFired: (alert) => {
      events.emit('alerts.fired', alert);
      // The OS notification is the Electron layer's (docs/contract.md §Alert notifications); the
      // browser host has none and the page's toast stays the notification.
      // A notification is a nicety: the page's toast has already told the trader.
      if (alert.notify.os)
        void Promise.resolve(alert)
          .then(deps.notifyOs)
          .catch(() => undefined);
    },
    onChanged: (list) => events.emit('alerts.changed', { alerts: list }),
  });
  return { book, studies, mtmWanted: () => mtmAlerts };
}
