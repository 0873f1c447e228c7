/**
 * The parts of Upstox's official SDK (`upstox-js-sdk`, a devDependency: it ships no types) the
 * /upstox dialect's tests call. Each call takes a node-style callback.
 */
declare module 'upstox-js-sdk' {
  type Callback = (error: SdkError | null, data: unknown, response: unknown) => void;
  export interface SdkError extends Error {
    status?: number;
    response?: { status: number; body: unknown; headers: Record<string, string | undefined> };
  }
  export class ApiClient {
    constructor(sandbox?: boolean);
    basePath: string;
    orderBasePath: string;
    authentications: { OAUTH2: { accessToken?: string } };
    timeout: number;
  }
  export class LoginApi {
    constructor(client: ApiClient);
    token(apiVersion: string, opts: Record<string, string>, cb: Callback): void;
  }
  export class UserApi {
    constructor(client: ApiClient);
    getProfile(apiVersion: string, cb: Callback): void;
    getUserFundMargin(apiVersion: string, opts: Record<string, string>, cb: Callback): void;
  }
  export class OrderApiV3 {
    constructor(client: ApiClient);
    placeOrder(body: Record<string, unknown>, opts: Record<string, unknown>, cb: Callback, algoName?: string): void;
    modifyOrder(body: Record<string, unknown>, cb: Callback, algoName?: string): void;
    cancelOrder(orderId: string, cb: Callback, algoName?: string): void;
  }
  export class OrderApi {
    constructor(client: ApiClient);
    getOrderBook(apiVersion: string, cb: Callback): void;
    getOrderStatus(opts: Record<string, string>, cb: Callback): void;
    getOrderDetails(apiVersion: string, opts: Record<string, string>, cb: Callback): void;
    getTradeHistory(apiVersion: string, cb: Callback): void;
    getTradesByOrder(orderId: string, apiVersion: string, cb: Callback): void;
  }
  export class PortfolioApi {
    constructor(client: ApiClient);
    getPositions(apiVersion: string, cb: Callback): void;
    getHoldings(apiVersion: string, cb: Callback): void;
  }
  export class MarketQuoteV3Api {
    constructor(client: ApiClient);
    getLtp(opts: Record<string, string>, cb: Callback): void;
  }
  export class MarketQuoteApi {
    constructor(client: ApiClient);
    getFullMarketQuote(symbol: string, apiVersion: string, cb: Callback): void;
  }
  export class HistoryV3Api {
    constructor(client: ApiClient);
    getHistoricalCandleData1(
      instrumentKey: string,
      unit: string,
      interval: string,
      toDate: string,
      fromDate: string,
      cb: Callback,
    ): void;
  }
  export class WebsocketApi {
    constructor(client: ApiClient);
    getMarketDataFeedAuthorizeV3(cb: Callback): void;
    getPortfolioStreamFeedAuthorize(apiVersion: string, cb: Callback): void;
  }
}
