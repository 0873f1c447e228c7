import { timingSafeEqual } from 'node:crypto';
import { PAPER_USER_ID } from '../../sessions';
import { type UpstoxRoute, upstoxApi, upstoxPage } from '../context';
import { UPSTOX_CODES, UpstoxError, inputError } from '../errors';
import { UPSTOX_CLIENT_ID, upstoxExpiry } from '../session';
import { readForm } from '../wire';

/**
 * The login and the user endpoints (docs/upstox.md §Login): the authorization dialog (the paper
 * user is always signed in, so it answers at once with a redirect carrying the code), the token
 * exchange, logout, the profile and funds.
 */

const invalidCredentials = (property: string): UpstoxError =>
  new UpstoxError(401, UPSTOX_CODES.invalidCredentials, 'Invalid Credentials', property);

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The user the paper account is, in Upstox's profile fields. */
export function upstoxProfile(): Record<string, unknown> {
  return {
    email: 'paper@tradedesk.invalid',
    exchanges: ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'],
    products: ['D', 'I', 'MTF'],
    broker: 'UPSTOX',
    user_id: PAPER_USER_ID,
    user_name: 'Paper Trader',
    order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
    user_type: 'individual',
    poa: false,
    ddpi: false,
    is_active: true,
  };
}

/** An http(s) URL, or a 400 naming `redirect_uri`. */
function redirectUri(raw: string | null): URL {
  let u: URL | null = null;
  try {
    u = raw === null ? null : new URL(raw);
  } catch {
    u = null;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    throw inputError('redirect_uri', "must be the app's registered http(s) redirect URL", raw?.slice(0, 200) ?? null);
  return u;
}

export const loginRoutes: readonly UpstoxRoute[] = [
  upstoxPage('/v2/login/authorization/dialog', ({ query, upstox, realNow }) => {
    if (query.get('client_id') !== UPSTOX_CLIENT_ID) throw invalidCredentials('client_id');
    if (query.get('response_type') !== 'code')
      throw inputError('response_type', 'must be code', query.get('response_type'));
    const raw = query.get('redirect_uri');
    const target = redirectUri(raw);
    target.searchParams.set('code', upstox.codes.issue(raw as string, realNow));
    const st = query.get('state');
    if (st !== null) target.searchParams.set('state', st.slice(0, 500));
    return { redirect: target.toString() };
  }),
  {
    method: 'POST',
    path: '/v2/login/authorization/token',
    kind: 'public',
    limit: 'standard',
    async handle({ req, query, state, upstox, realNow }) {
      const f = await readForm(req, query);
      if (f.get('grant_type') !== 'authorization_code')
        throw inputError('grant_type', 'must be authorization_code', f.get('grant_type'));
      const code = f.get('code');
      if (!code) throw inputError('code', 'is required');
      if (f.get('client_id') !== UPSTOX_CLIENT_ID) throw invalidCredentials('client_id');
      if (!sameText(f.get('client_secret') ?? '', state.sessions.apiSecret)) throw invalidCredentials('client_secret');
      // Single use whatever happens next (docs/upstox.md §Login).
      const issuedFor = upstox.codes.spend(code, realNow);
      if (issuedFor === undefined) throw invalidCredentials('code');
      if (f.get('redirect_uri') !== issuedFor) throw invalidCredentials('redirect_uri');
      const s = state.sessions.issue('trade', realNow);
      s.expiresAt = upstoxExpiry(realNow);
      state.journal.append({ e: 'session', s });
      // The token reply is not enveloped: the profile and the token side by side.
      return { body: { ...upstoxProfile(), access_token: s.token, extended_token: null } };
    },
  },
  upstoxApi('DELETE', '/v2/logout', 'standard', ({ state, session }) => {
    if (session) {
      state.sessions.revoke(session.token);
      state.journal.append({ e: 'session_end', token: session.token });
    }
    return true;
  }),
  upstoxApi('GET', '/v2/user/profile', 'standard', () => upstoxProfile()),
];
