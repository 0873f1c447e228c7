import { toIstIso } from '@shared/lib/ist-time';
import { WireSessionRequest } from '../../wire/rest-schemas';
import type { Route } from '../context';
import { readJson } from '../http-io';
import { Problem } from '../problem';
import { PAPER_API_KEY } from '../sessions';
import { parseOr400 } from '../validation';

/** POST /session: log in with api_key/api_secret; DELETE /session: log out (revoke the token). */
export const sessionRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/session',
    access: 'public',
    async handle({ req, state, realNow }) {
      const body = parseOr400(WireSessionRequest, await readJson(req));
      if (body.api_key !== PAPER_API_KEY || body.api_secret !== state.sessions.apiSecret) {
        throw new Problem(
          401,
          'invalid_credentials',
          'Unknown api_key or wrong api_secret (the paper account is paper/paper)',
        );
      }
      const s = state.sessions.issue(body.scope ?? 'trade', realNow);
      state.journal.append({ e: 'session', s });
      return {
        status: 201,
        body: {
          access_token: s.token,
          token_type: 'Bearer',
          expires_at: toIstIso(s.expiresAt),
          user_id: s.userId,
          scope: s.scope,
          // Whether a reused client_order_id is refused with 409 (docs/api.md §POST /session).
          client_order_id_unique: state.uniqueClientIds,
        },
      };
    },
  },
  {
    method: 'DELETE',
    path: '/session',
    access: 'read',
    handle({ state, session }) {
      if (session) {
        state.sessions.revoke(session.token);
        state.journal.append({ e: 'session_end', token: session.token });
      }
      return { status: 204 };
    },
  },
];
