import { type UpstoxRoute, upstoxApi } from '../context';
import { inputError } from '../errors';
import { feedUrl } from '../feeds';

/**
 * The feeds' `…/authorize` endpoints (docs/upstox.md §Feeds): each hands out a single-use socket
 * URL for the caller's session, in both spellings Upstox's SDKs read.
 */

const UPDATE_TYPES = ['order', 'position', 'holding', 'gtt_order'];

/** The socket URL as the SDKs read it, in both spellings. */
const redirect = (uri: string) => ({ authorized_redirect_uri: uri, authorizedRedirectUri: uri });

export const feedRoutes: readonly UpstoxRoute[] = [
  upstoxApi('GET', '/v3/feed/market-data-feed/authorize', 'standard', ({ upstox, session, realNow }) =>
    redirect(feedUrl(upstox, { feed: 'market', token: session?.token ?? '', updateTypes: [] }, realNow)),
  ),
  upstoxApi('GET', '/v2/feed/portfolio-stream-feed/authorize', 'standard', ({ upstox, session, query, realNow }) => {
    const raw = query.get('update_types') ?? 'order';
    const types = raw.split(',').map((t) => t.trim());
    const bad = types.find((t) => !UPDATE_TYPES.includes(t));
    if (bad !== undefined)
      throw inputError('update_types', `must be among ${UPDATE_TYPES.join(', ')}`, bad.slice(0, 30));
    return redirect(feedUrl(upstox, { feed: 'portfolio', token: session?.token ?? '', updateTypes: types }, realNow));
  }),
];
