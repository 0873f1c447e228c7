import protobuf from 'protobufjs';

/**
 * The market data feed v3's `FeedResponse` (docs/upstox.md §Market data feed), as the
 * protobuf schema Upstox publishes with its SDKs (`MarketDataFeedV3.proto`, package
 * `com.upstox.marketdatafeederv3udapi.rpc.proto`): the messages and field numbers Upstox sends.
 * The paper feed encodes with it and the Upstox adapter's ticker decodes with it; the paper
 * dialect's tests decode with the SDK's own `.proto`, so a drift between them fails a test.
 */

const d = (id: number) => ({ type: 'double', id });
const i64 = (id: number) => ({ type: 'int64', id });

const SCHEMA = {
  nested: {
    com: {
      nested: {
        upstox: {
          nested: {
            marketdatafeederv3udapi: {
              nested: {
                rpc: {
                  nested: {
                    proto: {
                      nested: {
                        LTPC: { fields: { ltp: d(1), ltt: i64(2), ltq: i64(3), cp: d(4) } },
                        Quote: { fields: { bidQ: i64(1), bidP: d(2), askQ: i64(3), askP: d(4) } },
                        MarketLevel: { fields: { bidAskQuote: { rule: 'repeated', type: 'Quote', id: 1 } } },
                        OptionGreeks: { fields: { delta: d(1), theta: d(2), gamma: d(3), vega: d(4), rho: d(5) } },
                        OHLC: {
                          fields: {
                            interval: { type: 'string', id: 1 },
                            open: d(2),
                            high: d(3),
                            low: d(4),
                            close: d(5),
                            vol: i64(6),
                            ts: i64(7),
                          },
                        },
                        MarketOHLC: { fields: { ohlc: { rule: 'repeated', type: 'OHLC', id: 1 } } },
                        MarketFullFeed: {
                          fields: {
                            ltpc: { type: 'LTPC', id: 1 },
                            marketLevel: { type: 'MarketLevel', id: 2 },
                            optionGreeks: { type: 'OptionGreeks', id: 3 },
                            marketOHLC: { type: 'MarketOHLC', id: 4 },
                            atp: d(5),
                            vtt: i64(6),
                            oi: d(7),
                            iv: d(8),
                            tbq: d(9),
                            tsq: d(10),
                          },
                        },
                        FullFeed: {
                          oneofs: { FullFeedUnion: { oneof: ['marketFF'] } },
                          fields: { marketFF: { type: 'MarketFullFeed', id: 1 } },
                        },
                        FirstLevelWithGreeks: {
                          fields: {
                            ltpc: { type: 'LTPC', id: 1 },
                            firstDepth: { type: 'Quote', id: 2 },
                            optionGreeks: { type: 'OptionGreeks', id: 3 },
                            vtt: i64(4),
                            oi: d(5),
                            iv: d(6),
                          },
                        },
                        Feed: {
                          oneofs: { FeedUnion: { oneof: ['ltpc', 'fullFeed', 'firstLevelWithGreeks'] } },
                          fields: {
                            ltpc: { type: 'LTPC', id: 1 },
                            fullFeed: { type: 'FullFeed', id: 2 },
                            firstLevelWithGreeks: { type: 'FirstLevelWithGreeks', id: 3 },
                            requestMode: { type: 'RequestMode', id: 4 },
                          },
                        },
                        Type: { values: { initial_feed: 0, live_feed: 1, market_info: 2 } },
                        RequestMode: { values: { ltpc: 0, full_d5: 1, option_greeks: 2, full_d30: 3 } },
                        MarketStatus: {
                          values: {
                            PRE_OPEN_START: 0,
                            PRE_OPEN_END: 1,
                            NORMAL_OPEN: 2,
                            NORMAL_CLOSE: 3,
                            CLOSING_START: 4,
                            CLOSING_END: 5,
                          },
                        },
                        MarketInfo: {
                          fields: { segmentStatus: { keyType: 'string', type: 'MarketStatus', id: 1 } },
                        },
                        FeedResponse: {
                          fields: {
                            type: { type: 'Type', id: 1 },
                            feeds: { keyType: 'string', type: 'Feed', id: 2 },
                            currentTs: i64(3),
                            marketInfo: { type: 'MarketInfo', id: 4 },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const FeedResponse = protobuf.Root.fromJSON(SCHEMA).lookupType(
  'com.upstox.marketdatafeederv3udapi.rpc.proto.FeedResponse',
);
