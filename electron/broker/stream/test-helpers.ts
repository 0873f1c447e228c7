import type { PaperBroker } from '../../paper';
import type { AuthSource } from '../auth-source';

/** Test-only: a token from the paper broker's `/v1` login. */
export async function login(b: PaperBroker): Promise<string> {
  const r = await fetch(`${b.url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

/** Test-only: an AuthSource that logs in again when the broker refuses the token (as the session manager does). */
export function authFor(broker: () => PaperBroker, first: string): AuthSource {
  let token: string | null = first;
  return {
    token: () => token,
    renew: async () => (token = await login(broker())),
    expired: () => {
      token = null;
    },
  };
}
