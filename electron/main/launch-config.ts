import { brokerUrlProblem } from '@shared/domain/broker-url';
import { APP_ENTRY_URL, APP_ORIGIN } from '../app/security/app-origin';
import { configuredFeed } from '../app/support/update-check';

/**
 * What the Electron shell reads from its environment at launch, decided by plain functions so
 * the rules are unit-tested without Electron (docs/architecture.md §Security).
 *
 * - `VITE_DEV_SERVER_URL` (set by `npm run dev`) makes the window load the Vite dev server and
 *   trust its origin with the bridge. A packaged build ignores it — otherwise anyone able to
 *   set an environment variable could point a window that holds the bridge at any origin — and
 *   a development build accepts it only on loopback.
 * - `TRADEDESK_BROKER_URL` must pass the broker URL rule (https, or http on loopback only),
 *   since the API secret and the token travel to it.
 * - `TRADEDESK_UPDATE_FEED`, an https address, turns on Help › Check for updates… (docs/architecture.md §Release).
 */

/** The environment variables the shell reads. */
export interface LaunchEnv {
  readonly VITE_DEV_SERVER_URL?: string | undefined;
  readonly TRADEDESK_BROKER_URL?: string | undefined;
  readonly TRADEDESK_API_KEY?: string | undefined;
  readonly TRADEDESK_API_SECRET?: string | undefined;
  readonly TRADEDESK_UPDATE_FEED?: string | undefined;
}

/** How the shell starts. */
export interface LaunchConfig {
  /** What the window loads: the packaged renderer, or the dev server in development. */
  readonly entryUrl: string;
  /** Origins trusted with the bridge and allowed as navigation targets. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** A remote broker from the environment, if any. */
  readonly broker: { readonly brokerUrl?: string; readonly apiKey?: string; readonly apiSecret?: string };
  /** The update feed, or null: no update check. */
  readonly updateFeed: string | null;
}

/** Either the launch configuration or why the app must not start (naming the variable). */
export type LaunchDecision =
  { readonly ok: true; readonly config: LaunchConfig } | { readonly ok: false; readonly error: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Reads the launch environment; `isPackaged` is Electron's `app.isPackaged`. */
export function decideLaunch(env: LaunchEnv, isPackaged: boolean): LaunchDecision {
  let entryUrl = APP_ENTRY_URL;
  const allowedOrigins = new Set([APP_ORIGIN]);
  const dev = env.VITE_DEV_SERVER_URL;
  if (dev && !isPackaged) {
    const url = URL.canParse(dev) ? new URL(dev) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !LOOPBACK.has(url.hostname)) {
      return {
        ok: false,
        error: `VITE_DEV_SERVER_URL must be a dev server on this machine (http://127.0.0.1:PORT/), got "${dev}"`,
      };
    }
    entryUrl = url.href;
    allowedOrigins.add(url.origin);
  }
  const brokerUrl = env.TRADEDESK_BROKER_URL || undefined;
  const problem = brokerUrl === undefined ? null : brokerUrlProblem(brokerUrl);
  if (problem) return { ok: false, error: `TRADEDESK_BROKER_URL: ${problem}` };
  const feed = configuredFeed(env);
  if (!feed.ok) return feed;
  return {
    ok: true,
    config: {
      entryUrl,
      allowedOrigins,
      broker: {
        ...(brokerUrl !== undefined ? { brokerUrl } : {}),
        ...(env.TRADEDESK_API_KEY ? { apiKey: env.TRADEDESK_API_KEY } : {}),
        ...(env.TRADEDESK_API_SECRET ? { apiSecret: env.TRADEDESK_API_SECRET } : {}),
      },
      updateFeed: feed.url,
    },
  };
}

/**
 * Waits for `closing` to settle, but at most `budgetMs`: quitting must flush what it can (the
 * ledger, the broker session) and must never hang the app. Nothing on the order path depends
 * on it finishing — intents are on disk before their POST (docs/money-path.md §Exactly-once
 * orders).
 */
export function settleWithin(
  closing: Promise<unknown>,
  budgetMs: number,
  onError: (err: unknown) => void,
  setTimer: (fn: () => void, ms: number) => unknown = setTimeout,
): Promise<void> {
  return new Promise((resolve) => {
    setTimer(resolve, budgetMs);
    closing.then(
      () => resolve(),
      (err: unknown) => {
        onError(err);
        resolve();
      },
    );
  });
}

/** What `holdQuitUntilClosed` needs of the app (Electron's `app`, or a test's fake). */
export interface QuitHooks {
  /** Registers the before-quit handler; `preventDefault` holds this quit. */
  onBeforeQuit(handler: (event: { preventDefault(): void }) => void): void;
  quit(): void;
}

/**
 * Quits only after `close()` settled (or `budgetMs` ran out): the first quit is held once while
 * the services close, then quits for real; later quits pass straight through.
 */
export function holdQuitUntilClosed(
  hooks: QuitHooks,
  close: () => Promise<unknown>,
  budgetMs: number,
  onError: (err: unknown) => void,
): void {
  let closing: Promise<void> | null = null;
  let closed = false;
  hooks.onBeforeQuit((event) => {
    if (closed) return;
    event.preventDefault();
    closing ??= settleWithin(close(), budgetMs, onError).then(() => {
      closed = true;
      hooks.quit();
    });
  });
}
