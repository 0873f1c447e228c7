import type { MarketDepth } from '../domain/market';

/** INFY's five-level book as docs/api.md, "GET /quotes → 200" shows it: bid 1,499.95, offer 1,500.05. */
export const INFY_DEPTH: MarketDepth = {
  buy: [
    { price: 1499.95, quantity: 412, orders: 9 },
    { price: 1499.9, quantity: 505, orders: 4 },
    { price: 1499.85, quantity: 661, orders: 13 },
    { price: 1499.8, quantity: 903, orders: 20 },
    { price: 1499.75, quantity: 1067, orders: 6 },
  ],
  sell: [
    { price: 1500.05, quantity: 297, orders: 3 },
    { price: 1500.1, quantity: 470, orders: 11 },
    { price: 1500.15, quantity: 788, orders: 2 },
    { price: 1500.2, quantity: 702, orders: 17 },
    { price: 1500.25, quantity: 1210, orders: 25 },
  ],
};
