import type { SquareOffState } from '@shared/domain/square-off';
import { AppError } from '@shared/ipc/app-error';
import { intradayExposure, SquareOff } from '../../core/safety/square-off';
import type { TradingCore } from '../../core/trading-core';
import type { SettingsStore } from '../settings/settings-store';

/** What the host tells the rest of the app. */
export interface SquareOffHostDeps {
  readonly settings: SettingsStore;
  /** Every change (`squareOff.changed`). */
  readonly onChange: (state: SquareOffState) => void;
  /** The warning two minutes before: the OS notification, window shown or not (must not throw). */
  readonly onWarning?: (text: { readonly title: string; readonly body: string }) => void;
}

/**
 * The logged-in profile's square-off (docs/contract.md §Risk guard): one per core, kept in the
 * profile's settings, watching from login until the core is replaced.
 */
export class SquareOffHost {
  readonly #deps: SquareOffHostDeps;
  #current: SquareOff | null = null;

  public constructor(deps: SquareOffHostDeps) {
    this.#deps = deps;
  }

  /** The square-off of a core just logged in: the last one stops watching. */
  public use(core: TradingCore): void {
    this.#current?.close();
    const key = core.profileKey;
    const { settings } = this.#deps;
    const so = new SquareOff({
      marketStatus: () => core.broker.marketStatus(),
      exposure: () => intradayExposure(core),
      safety: core.safety,
      load: async () => (await settings.read()).squareOff?.[key] ?? null,
      save: async (stored) => {
        await settings.update((s) => ({ ...s, squareOff: { ...s.squareOff, [key]: stored } }));
      },
      onChange: this.#deps.onChange,
      ...(this.#deps.onWarning ? { onWarning: this.#deps.onWarning } : {}),
    });
    this.#current = so;
    so.start();
  }

  /** The logged-in profile's square-off. */
  public current(): SquareOff {
    if (!this.#current) throw new AppError({ kind: 'unauthorized', message: 'Not logged in to a broker' });
    return this.#current;
  }

  public close(): void {
    this.#current?.close();
    this.#current = null;
  }
}
