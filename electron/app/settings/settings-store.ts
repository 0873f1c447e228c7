import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../wire/private-files';
import { PriceAlert } from '@shared/domain/alert';
import { IsoDate } from '@shared/domain/instrument';
import { NO_RISK_LIMITS, RiskLimits } from '@shared/domain/risk';
import { MtmSettings, MtmTrigger, NO_MTM_SETTINGS } from '@shared/domain/mtm';
import { StoredProfile } from '@shared/domain/session';
import { StoredSquareOff } from '@shared/domain/square-off';
import { Desk, MAX_WORKSPACES, Workspace } from '@shared/domain/workstation';

/** One profile's risk guard: its limits, and the IST day its loss limit was last reached (docs/contract.md §Risk guard). */
export const StoredRisk = z.object({ limits: RiskLimits, lossReachedOn: IsoDate.nullable() });
export type StoredRisk = z.infer<typeof StoredRisk>;

/** The app's settings file. */
export const Settings = z.object({
  profile: StoredProfile.optional(),
  /** Risk guard per profile, by the profile's key (the vault key: never a secret). */
  risk: z.record(z.string().max(100), StoredRisk).optional(),
  /**
   * The square-off at a time per profile (docs/contract.md §Risk guard): its settings and the
   * session each exchange was last squared off. A damaged entry reads as none (off).
   */
  squareOff: z.record(z.string().max(100), StoredSquareOff).optional().catch(undefined),
  /**
   * The MTM stop and target per profile, by the same key (docs/contract.md §Risk guard). A damaged
   * entry reads as none: the levels are off, the rest of the file stands.
   */
  mtm: z.record(z.string().max(100), MtmSettings).optional().catch(undefined),
  /** The day's MTM trigger per profile once its kill switch ran: a restart the same day does not fire again. */
  mtmTriggered: z.record(z.string().max(100), MtmTrigger).optional().catch(undefined),
  /** Price alerts per profile, by the same key (docs/contract.md §Price alerts). */
  alerts: z.record(z.string().max(100), z.array(PriceAlert).max(1_000)).optional(),
  /**
   * The desk as it was left and the named workspaces, per profile (docs/workstation.md
   * §Workspaces). A damaged entry reads as none: the desk starts afresh, the rest of the file stands.
   */
  desks: z
    .record(z.string().max(100), z.object({ current: Desk, workspaces: z.array(Workspace).max(MAX_WORKSPACES) }))
    .optional()
    .catch(undefined),
});
export type Settings = z.infer<typeof Settings>;

/** A profile's stored risk guard, or none set. */
export function storedRisk(settings: Settings, profileKey: string): StoredRisk {
  return settings.risk?.[profileKey] ?? { limits: NO_RISK_LIMITS, lossReachedOn: null };
}

/** A profile's stored MTM levels, or none set. */
export function storedMtm(settings: Settings, profileKey: string): MtmSettings {
  return settings.mtm?.[profileKey] ?? NO_MTM_SETTINGS;
}

/**
 * `settings.json` in the data folder: the last broker profile chosen, without its secret.
 *
 * A damaged or foreign file reads as empty settings (the app starts on the paper broker)
 * rather than stopping the app; writes go to a temporary file renamed over the old one.
 */
export class SettingsStore {
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();

  public constructor(path: string) {
    this.#path = path;
  }

  public async read(): Promise<Settings> {
    try {
      const parsed = Settings.safeParse(JSON.parse(await readFile(this.#path, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  /** Reads, changes and writes the settings, one change at a time (two writers never lose each other's change). */
  public update(change: (settings: Settings) => Settings): Promise<Settings> {
    const run = this.#queue.then(async () => {
      const next = change(await this.read());
      await this.write(next);
      return next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  public async write(settings: Settings): Promise<void> {
    await makePrivateDir(dirname(this.#path));
    const tmp = `${this.#path}.tmp`;
    await writeFile(tmp, `${JSON.stringify(Settings.parse(settings), null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    await rename(tmp, this.#path);
  }
}
