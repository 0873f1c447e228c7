import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KITE_API_ROOT, type KiteLoginStart } from '@shared/domain/session';
import { AppError } from '@shared/ipc/app-error';

/** Kite's login page for a real Kite Connect app; another API root (the paper broker's) serves its own. */
export const KITE_LOGIN_PAGE = 'https://kite.zerodha.com/connect/login';

/** The path of the loopback redirect, as the Kite Connect app registers it. */
export const KITE_CALLBACK_PATH = '/kite/callback';

/** How long a started login waits for its redirect. */
const PENDING_MS = 10 * 60_000;

/** A login started and not yet come back. */
interface Pending {
  readonly state: string;
  readonly profile: KiteLoginStart;
  readonly remember: boolean;
  readonly until: number;
}

/** What the flow needs from the app. */
export interface KiteLoginDeps {
  /** The loopback port the redirect URL names (registered in the Kite Connect app); 0 = any (tests). */
  readonly port: number;
  /** Completes the login with the request token the redirect brought. */
  complete(profile: KiteLoginStart, requestToken: string, remember: boolean): Promise<void>;
  /** Opens the login page in its own window (Electron); absent → the renderer opens a tab. */
  readonly open?: (url: string, callbackOrigin: string) => void;
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
 * A desktop app's login through the broker's page (RFC 8252, docs/session.md, "Kite login"):
 * main opens Kite's page with a random `state` in `redirect_params`, listens on
 * `http://127.0.0.1:PORT/kite/callback`, and accepts a redirect only with that state (once, and
 * within ten minutes), then trades the request token for the access token. The secret and the
 * token never reach the renderer; the browser tab only ever sees the one-time request token.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 */
export class KiteLoginFlow {
  readonly #deps: KiteLoginDeps;
  readonly #now: () => number;
  #server: Server | null = null;
  #listening: Promise<number> | null = null;
  #pending: Pending | null = null;

  public constructor(deps: KiteLoginDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** The redirect URL to register in the Kite Connect app (known once listening). */
  public async redirectUrl(): Promise<string> {
    return `http://127.0.0.1:${await this.#listen()}${KITE_CALLBACK_PATH}`;
  }

  /** Starts a login: listens for the redirect and answers the page to open (opening it when main can). */
  public async start(profile: KiteLoginStart, remember: boolean): Promise<{ loginUrl: string; opened: boolean }> {
    const port = await this.#listen();
    const state = randomBytes(16).toString('hex');
    this.#pending = { state, profile, remember, until: this.#now() + PENDING_MS };
    const root = profile.baseUrl ?? KITE_API_ROOT;
    const login = new URL(root === KITE_API_ROOT ? KITE_LOGIN_PAGE : `${root.replace(/\/+$/, '')}/connect/login`);
    login.searchParams.set('v', '3');
    login.searchParams.set('api_key', profile.apiKey);
    login.searchParams.set('redirect_params', new URLSearchParams({ state }).toString());
    const loginUrl = login.toString();
    if (this.#deps.open) {
      this.#deps.open(loginUrl, `http://127.0.0.1:${port}`);
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
            message: `Cannot listen for Kite's redirect on 127.0.0.1:${this.#deps.port} (${err.message})`,
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
    if (req.method !== 'GET' || url.pathname !== KITE_CALLBACK_PATH) {
      reply(404, 'Not found', 'This address only receives the Kite login.');
      return;
    }
    const pending = this.#pending;
    const state = url.searchParams.get('state') ?? '';
    if (!pending || pending.until < this.#now() || !sameText(state, pending.state)) {
      // Not the login Tradedesk started (or too late): the pending one, if any, still waits.
      reply(400, 'Login not accepted', 'This login was not started by Tradedesk, or it expired. Start it again.');
      return;
    }
    this.#pending = null;
    const requestToken = url.searchParams.get('request_token');
    if (url.searchParams.get('status') !== 'success' || !requestToken) {
      reply(400, 'Login not completed', 'Kite did not complete the login. Start it again from Tradedesk.');
      return;
    }
    try {
      await this.#deps.complete(pending.profile, requestToken, pending.remember);
      reply(200, 'Logged in to Kite', 'You can close this tab and return to Tradedesk.');
    } catch (err) {
      const why = err instanceof AppError ? err.info.message : 'an unexpected error';
      reply(502, 'Login failed', `Tradedesk could not finish the login: ${why.replace(/[<>&]/g, '')}`);
    }
  }
}
