import { describe, expect, it } from 'vitest';
import type { Order, Trade } from '../domain/order';
import { csvFileName, ordersCsv, tradesCsv } from './book-csv';

function order(orderId: string, placedAt: string, over: Partial<Order> = {}): Order {
  return {
    orderId,
    clientOrderId: `td-${orderId}`,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: 408065,
    transactionType: 'BUY',
    quantity: 10,
    filledQuantity: 10,
    pendingQuantity: 0,
    cancelledQuantity: 0,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: 1500.05,
    triggerPrice: null,
    averagePrice: 1500.05,
    status: 'COMPLETE',
    statusMessage: null,
    placedAt,
    updatedAt: placedAt,
    ...over,
  };
}

describe('ordersCsv', () => {
  it('lists orders oldest first, whatever the offset their times are written in', () => {
    const csv = ordersCsv([
      order('2', '2026-11-23T10:00:00+05:30'),
      order('1', '2026-11-23T04:00:00Z'), // 09:30 IST
    ]);
    const ids = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[1]);
    expect(ids).toEqual(['1', '2']);
  });

  it('writes a rejected order’s broker message in one quoted cell, with an empty trigger price', () => {
    const csv = ordersCsv([
      order('9', '2026-11-23T10:00:00+05:30', {
        status: 'REJECTED',
        statusMessage: 'Price 1,600 is above the upper circuit',
      }),
    ]);
    const [header, line] = csv.split('\r\n');
    expect(header).toContain('trigger_price,average_price,status,status_message');
    expect(line).toContain(',,1500.05,REJECTED,"Price 1,600 is above the upper circuit",');
  });
});

describe('tradesCsv', () => {
  it('has one line per fill with its time, price, quantity and order id', () => {
    const t: Trade = {
      tradeId: 't1',
      orderId: 'o7',
      exchange: 'NFO',
      tradingsymbol: 'NIFTY26NOV24500CE',
      instrumentToken: 1,
      transactionType: 'SELL',
      product: 'NRML',
      quantity: 75,
      price: 182.4,
      filledAt: '2026-11-23T09:16:02+05:30',
    };
    expect(tradesCsv([t])).toBe(
      'filled_at,trade_id,order_id,exchange,tradingsymbol,side,product,quantity,price\r\n' +
        '2026-11-23T09:16:02+05:30,t1,o7,NFO,NIFTY26NOV24500CE,SELL,NRML,75,182.4\r\n',
    );
  });
});

describe('csvFileName', () => {
  it('names the book and the day', () => {
    expect(csvFileName('positions', '2026-11-23')).toBe('tradedesk-positions-2026-11-23.csv');
  });
});
