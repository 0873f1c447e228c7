import { FeedResponse } from '../../wire/upstox-feed-proto';

/**
 * Encodes the market data feed v3's `FeedResponse` (docs/upstox.md §Market data feed) with the
 * schema Upstox publishes with its SDKs (`electron/wire/upstox-feed-proto.ts`), so any client
 * built from Upstox's file decodes it. Encoded with protobufjs.
 */

/** One instrument's feed, as plain fields (enums by name). */
export type FeedValue = Record<string, unknown>;

/** A FeedResponse as bytes: `type` initial_feed, live_feed or market_info. */
export function encodeFeedResponse(message: {
  type: 'initial_feed' | 'live_feed' | 'market_info';
  feeds?: Record<string, FeedValue>;
  currentTs: number;
  marketInfo?: { segmentStatus: Record<string, string> };
}): Buffer {
  const m = FeedResponse.fromObject(message);
  return Buffer.from(FeedResponse.encode(m).finish());
}
