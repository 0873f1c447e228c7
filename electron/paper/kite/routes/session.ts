import { KiteError, inputError, tokenError } from '../errors';
import { type KiteRoute, kiteApi, kitePage } from '../context';
import { KITE_API_KEY, checksumMatches, kiteExpiry } from '../session';
import { kiteProfile, kiteSegmentMargins } from '../views';
import { kiteTime, readParams } from '../wire';

/**
 * The login flow and the user endpoints (docs/kite.md §Login, §User): the login page, the
 * token page it redirects to by default, `POST/DELETE /session/token`, profile and margins.
 */

/** Keys the login redirect sets itself; `redirect_params` may not override them. */
const RESERVED = new Set(['request_token', 'action', 'status', 'type']);

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The login pages, the token exchange and logout, profile and margins on /kite. */
export const sessionRoutes: readonly KiteRoute[] = [
  kitePage('/connect/login', ({ query, kite, realNow }) => {
    const apiKey = query.get('api_key');
    if (apiKey !== KITE_API_KEY) {
      return {
        status: 400,
        html: `<!doctype html><title>Paper login</title><p>Unknown api_key ${escapeHtml(apiKey ?? '(none)')}: the paper account's api_key is <code>paper</code>.</p>`,
      };
    }
    let target: URL;
    try {
      target = new URL(kite.redirectUrl());
    } catch {
      return { status: 500, html: '<!doctype html><title>Paper login</title><p>The redirect URL is not a URL.</p>' };
    }
    target.searchParams.set('request_token', kite.requestTokens.issue(realNow));
    target.searchParams.set('action', 'login');
    target.searchParams.set('type', 'login');
    target.searchParams.set('status', 'success');
    const echoed = query.get('redirect_params');
    if (echoed !== null) {
      for (const [k, v] of new URLSearchParams(echoed)) if (!RESERVED.has(k)) target.searchParams.append(k, v);
    }
    return { redirect: target.toString() };
  }),
  kitePage('/connect/done', ({ query }) => {
    const token = escapeHtml((query.get('request_token') ?? '').slice(0, 64));
    return {
      html:
        '<!doctype html><meta charset="utf-8"><title>Paper broker: logged in</title>' +
        `<h1>Logged in to the paper broker</h1><p>request_token: <code id="request_token">${token}</code></p>` +
        '<p>Exchange it within 5 minutes: POST /kite/session/token with api_key, request_token and ' +
        'checksum = SHA-256(api_key + request_token + api_secret).</p>',
    };
  }),
  {
    method: 'POST',
    path: '/session/token',
    kind: 'public',
    limit: 'default',
    async handle({ req, query, state, kite, realNow }) {
      const p = await readParams(req, query);
      const apiKey = p.need('api_key');
      const requestToken = p.need('request_token');
      const checksum = p.need('checksum');
      if (apiKey !== KITE_API_KEY) throw tokenError('Invalid `api_key`.');
      if (!checksumMatches(requestToken, checksum, state.sessions.apiSecret)) throw tokenError('Invalid `checksum`.');
      if (!kite.requestTokens.spend(requestToken, realNow)) throw tokenError('Token is invalid or has expired.');
      const s = state.sessions.issue('trade', realNow);
      s.expiresAt = kiteExpiry(realNow);
      state.journal.append({ e: 'session', s });
      return {
        data: {
          ...kiteProfile(),
          api_key: apiKey,
          access_token: s.token,
          public_token: s.token.slice(0, 16),
          enctoken: '',
          refresh_token: '',
          silo: '',
          login_time: kiteTime(realNow),
        },
      };
    },
  },
  kiteApi('DELETE', '/session/token', 'default', async ({ req, query, state, session }) => {
    const p = await readParams(req, query);
    const token = p.get('access_token') ?? session?.token;
    if (token !== session?.token) throw inputError('access_token', 'may only name the token of this request');
    if (session) {
      state.sessions.revoke(session.token);
      state.journal.append({ e: 'session_end', token: session.token });
    }
    return true;
  }),
  kiteApi('GET', '/user/profile', 'default', () => kiteProfile()),
  kiteApi('GET', '/user/margins', 'default', ({ state, now }) => {
    state.engine.account.rollTo(now);
    const m = kiteSegmentMargins(state.engine, state.market);
    return { equity: m, commodity: m };
  }),
  kiteApi('GET', '/user/margins/:segment', 'default', ({ state, params, now }) => {
    const segment = params.segment ?? '';
    if (segment !== 'equity' && segment !== 'commodity')
      throw new KiteError(400, 'InputException', 'segment: must be equity or commodity');
    state.engine.account.rollTo(now);
    return kiteSegmentMargins(state.engine, state.market);
  }),
];
