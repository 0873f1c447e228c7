import type { Tick } from '@shared/domain/market';
import type { TradingCoreEvents } from '../core/trading-core';
import type { EventHub } from './event-hub';
import type { JournalService } from './journal/journal-service';
import type { OrdersChangedBatcher } from './orders-changed-batcher';
import { storedRisk, type SettingsStore } from './settings/settings-store';

/** Where a core's news goes in the app. */
export interface CoreEventsDeps {
  readonly events: EventHub;
  readonly settings: SettingsStore;
  readonly journal: JournalService;
  /** Bursts of order changes cross the bridge as one delta per 50 ms, the first at once. */
  readonly ordersChanged: OrdersChangedBatcher;
  /** Every streamed tick: the alerts, then the page. */
  readonly onTick: (tick: Tick) => void;
  /** Replaces main's own subscription under `owner` (the stream follows the union with the UI's). */
  readonly watch: (owner: string, tokens: readonly number[]) => void;
}

/**
 * The events fan-out of a core: each of its events to the page's channel, the settings it keeps
 * (the day's loss reached, the MTM trigger), the journal, or main's own subscriptions.
 */
export function coreEvents(deps: CoreEventsDeps): TradingCoreEvents {
  const { events, settings, journal, ordersChanged } = deps;
  return {
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
    onBracketWatch: (tokens) => deps.watch('main:brackets', [...tokens]),
    onMtm: (status) => events.emit('mtm.changed', status),
    // Main's own subscription: the day's MTM is measured with the window hidden.
    onMtmWatch: (tokens) => deps.watch('main:mtm', [...tokens]),
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
    onTick: deps.onTick,
  };
}
