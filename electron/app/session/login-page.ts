import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerProfile } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';
import type { BrokerRegistry } from './broker-registry';

/** How long a started login waits for its redirect. */
const PENDING_MS = 10 * 60_000;

/** A login started and not yet come back. */
interface Pending {
  readonly state: string;
  readonly callbackPath: string;
  /** The redirect URL the page was given: a code is exchanged with it (docs/session.md §Login through the broker's page). */
  readonly redirectUrl: string;
  readonly profile: BrokerProfile;
  readonly remember: boolean;
  readonly until: number;
}

/** What the flow needs from the app. */
export interface LoginPageDeps {
  /** The broker kinds, each with its login page if it has one. */
  readonly brokers: BrokerRegistry;
  /** The loopback port the redirect URL names (registered in the broker's app); 0 = any (tests). */
  readonly port: number;
  /** Completes the login with the one-time code the redirect brought, and the redirect URL it was issued for. */
  complete(profile: BrokerProfile, requestToken: string, remember: boolean, redirectUrl: string): Promise<void>;
  /** Opens the login page in its own window (Electron), which may reach `callbackUrl`; absent → the renderer opens a tab. */
  readonly open?: (url: string, callbackUrl: string) => void;
  readonly now?: () => number;
}

const page = (title: string, body: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
  `<body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${body}</p></body>`;

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * A desktop app's login through the broker's page (RFC 8252, docs/session.md §Login through the
 * broker's page), for a kind whose registry entry has a `loginPage`: main opens the broker's page
 * with a random `state`, listens on `http://127.0.0.1:PORT<callbackPath>`, and accepts a redirect
 * only with that state (once, and within ten minutes), then trades the one-time code for the
 * access token. The secret and the token never reach the renderer; the browser tab only ever
 * sees the one-time code.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 */
export class LoginPageFlow {
  readonly #deps: LoginPageDeps;
  readonly #now: () => number;
  #server: Server | null = null;
  #listening: Promise<number> | null = null;
  #pending: Pending | null = null;

  public constructor(deps: LoginPageDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /**
   * Starts a login: judges the profile by its kind (one that has no login page is a
   * `bad_request` naming `profile.kind`), listens for the redirect and answers the page to open
   * (opening it when main can).
   */
  public async start(draft: BrokerProfile, remember: boolean): Promise<{ loginUrl: string; opened: boolean }> {
    const { entry, profile } = this.#deps.brokers.judge(draft);
    const page = entry.loginPage;
    if (!page)
      throw new AppError({
        kind: 'bad_request',
        message: `${entry.describe.title} has no login page: log in with its fields`,
        field: 'profile.kind',
      });
    const port = await this.#listen();
    const state = randomBytes(16).toString('hex');
    const redirectUrl = `http://127.0.0.1:${port}${page.callbackPath}`;
    this.#pending = {
      state,
      callbackPath: page.callbackPath,
      redirectUrl,
      profile: draft,
      remember,
      until: this.#now() + PENDING_MS,
    };
    const loginUrl = page.pageUrl(profile, { state, redirectUrl });
    if (this.#deps.open) {
      this.#deps.open(loginUrl, redirectUrl);
      return { loginUrl, opened: true };
    }
    return { loginUrl, opened: false };
  }

  /** Stops listening. */
  public async close(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    this.#listening = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #listen(): Promise<number> {
    this.#listening ??= new Promise<number>((resolve, reject) => {
      const server = createServer((req, res) => void this.#onRequest(req, res));
      server.once('error', (err) => {
        this.#listening = null;
        reject(
          new AppError({
            kind: 'internal',
            message: `Cannot listen for the broker's login redirect on 127.0.0.1:${this.#deps.port} (${err.message})`,
          }),
        );
      });
      server.listen(this.#deps.port, '127.0.0.1', () => {
        this.#server = server;
        resolve((server.address() as AddressInfo).port);
      });
    });
    return this.#listening;
  }

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, title: string, body: string): void => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      res.end(page(title, body));
    };
    if (req.method !== 'GET' || !this.#deps.brokers.callbackPaths().includes(url.pathname)) {
      reply(404, 'Not found', 'This address only receives a broker login.');
      return;
    }
    const pending = this.#pending;
    const state = url.searchParams.get('state') ?? '';
    if (
      !pending ||
      pending.callbackPath !== url.pathname ||
      pending.until < this.#now() ||
      !sameText(state, pending.state)
    ) {
      // Not the login Tradedesk started (or too late): the pending one, if any, still waits.
      reply(400, 'Login not accepted', 'This login was not started by Tradedesk, or it expired. Start it again.');
      return;
    }
    this.#pending = null;
    const { entry } = this.#deps.brokers.judge(pending.profile);
    const code = entry.loginPage?.codeOf(url.searchParams) ?? null;
    const title = entry.describe.title;
    if (!code) {
      reply(400, 'Login not completed', `${title} did not complete the login. Start it again from Tradedesk.`);
      return;
    }
    try {
      await this.#deps.complete(pending.profile, code, pending.remember, pending.redirectUrl);
      reply(200, `Logged in to ${title}`, 'You can close this tab and return to Tradedesk.');
    } catch (err) {
      const why = err instanceof AppError ? err.info.message : 'an unexpected error';
      reply(502, 'Login failed', `Tradedesk could not finish the login: ${why.replace(/[<>&]/g, '')}`);
    }
  }
}
