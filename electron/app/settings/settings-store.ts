import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** A broker profile as stored on disk: where and who, never the secret (that is the vault's). */
export const StoredProfile = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('paper') }),
  z.object({ kind: z.literal('rest'), baseUrl: z.url({ protocol: /^https?$/ }), apiKey: z.string().min(1).max(256) }),
  z.object({
    kind: z.literal('kite'),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).max(256),
  }),
]);
export type StoredProfile = z.infer<typeof StoredProfile>;

/** The app's settings file. */
export const Settings = z.object({ profile: StoredProfile.optional() });
export type Settings = z.infer<typeof Settings>;

/**
 * `settings.json` in the data folder: the last broker profile chosen, without its secret.
 *
 * A damaged or foreign file reads as empty settings (the app starts on the paper broker)
 * rather than stopping the app; writes go to a temporary file renamed over the old one.
 */
export class SettingsStore {
  readonly #path: string;

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

  public async write(settings: Settings): Promise<void> {
    await mkdir(dirname(this.#path), { recursive: true });
    const tmp = `${this.#path}.tmp`;
    await writeFile(tmp, `${JSON.stringify(Settings.parse(settings), null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.#path);
  }
}
