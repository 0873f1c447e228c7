import type { Exchange, InstrumentType } from '@shared/domain/instrument';
import { istDate } from '@shared/lib/ist-time';
import { fromUnits, PRICE_UNITS_PER_RUPEE, toUnits } from '@shared/trading/money';
import { addDays, isTradingDay } from './calendar';
import { expiryInstant } from '@shared/trading/market-hours';
import { ATM_VOL, blackScholes, futurePrice, smileVol, yearsTo } from '@shared/trading/options-pricing';
import { deriveRng, fnv1a, type Rng } from './rng';

/**
 * The paper broker's tradable universe, generated in code.
 *
 * Deterministic for a seed (prices are jittered by it), with expiries computed from today's
 * date so every contract is live whenever the broker starts (a contract expiring today trades
 * until the close). Every instrument names its underlying — an index, a stock, a commodity or a
 * currency — and derivatives start at the price the market's pricing gives them (docs/api.md
 * §Prices), so the first tick does not jump. Symbols, lot sizes, freeze limits
 * and tick sizes look like NSE/BSE/MCX/CDS's own, so the order ticket's rules meet real shapes.
 * Nothing is read from disk at run time: the broker is one bundled file.
 */

/** One instrument as the broker holds it: prices in integer units of ₹0.0001 (shared/trading/money.ts). */
export interface PaperInstrument {
  readonly token: number;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly name: string;
  readonly segment: string;
  readonly instrumentType: InstrumentType;
  readonly lotSize: number;
  readonly tickSize: number;
  readonly tickUnits: number;
  readonly freezeQuantity: number;
  /** Rupees per unit of price per unit of quantity: the contract size where a price is quoted per part of it. */
  readonly multiplier: number;
  readonly expiry: string | null;
  readonly strike: number | null;
  /** The previous close: the day's band is set around it, the random walk starts from it. */
  readonly baseUnits: number;
  /** Percent each side of the base that the day's price band allows. */
  readonly bandPercent: number;
  /** The underlying it follows: `NIFTY`, `RELIANCE`, `GOLD`, `USDINR`… (a stock's own symbol for its listings). */
  readonly underlying: string;
  /** The underlying's price (rupees) this instrument's base was computed from. */
  readonly underlyingBase: number;
  /** Thin book: wider spread, smaller levels (docs/api.md §The order book). */
  readonly thin: boolean;
  /** When it stops trading and settles (its expiry day's close), epoch ms; null for an equity. */
  readonly expiresAt: number | null;
}

/** What an underlying is, which decides its volatility and which session moves it. */
export type UnderlyingKind = 'index' | 'stock' | 'commodity' | 'currency';

/** The underlying of a symbol's instruments: what kind it is and which exchange's hours move it. */
export interface UnderlyingSpec {
  readonly key: string;
  readonly kind: UnderlyingKind;
  /** The exchange whose session moves it (a stock: NSE; an index: its derivatives' exchange). */
  readonly exchange: Exchange;
}

/** [symbol, company name, approximate price in rupees, F&O lot size or 0 when not in F&O]. */
const EQUITIES: ReadonlyArray<readonly [string, string, number, number]> = [
  ['RELIANCE', 'RELIANCE INDUSTRIES', 1420, 500],
  ['TCS', 'TATA CONSULTANCY SERV', 3050, 175],
  ['HDFCBANK', 'HDFC BANK', 990, 550],
  ['INFY', 'INFOSYS', 1480, 400],
  ['ICICIBANK', 'ICICI BANK', 1360, 700],
  ['SBIN', 'STATE BANK OF INDIA', 880, 750],
  ['BHARTIARTL', 'BHARTI AIRTEL', 2010, 475],
  ['ITC', 'ITC', 405, 1600],
  ['LT', 'LARSEN & TOUBRO', 3900, 175],
  ['KOTAKBANK', 'KOTAK MAHINDRA BANK', 2100, 400],
  ['AXISBANK', 'AXIS BANK', 1180, 625],
  ['HINDUNILVR', 'HINDUSTAN UNILEVER', 2450, 300],
  ['BAJFINANCE', 'BAJAJ FINANCE', 1010, 750],
  ['MARUTI', 'MARUTI SUZUKI INDIA', 15900, 50],
  ['SUNPHARMA', 'SUN PHARMACEUTICAL IND', 1690, 350],
  ['TATAMOTORS', 'TATA MOTORS', 680, 800],
  ['TATASTEEL', 'TATA STEEL', 171, 5500],
  ['WIPRO', 'WIPRO', 245, 3000],
  ['HCLTECH', 'HCL TECHNOLOGIES', 1550, 350],
  ['ONGC', 'OIL AND NATURAL GAS CORP', 247, 2250],
  ['NTPC', 'NTPC', 340, 1500],
  ['POWERGRID', 'POWER GRID CORP', 290, 1900],
  ['ADANIENT', 'ADANI ENTERPRISES', 2450, 300],
  ['ASIANPAINT', 'ASIAN PAINTS', 2480, 250],
  ['TITAN', 'TITAN COMPANY', 3700, 175],
  ['ULTRACEMCO', 'ULTRATECH CEMENT', 12100, 50],
  ['COALINDIA', 'COAL INDIA', 390, 1350],
  ['JSWSTEEL', 'JSW STEEL', 1160, 675],
  ['M&M', 'MAHINDRA & MAHINDRA', 3550, 200],
  ['BAJAJ-AUTO', 'BAJAJ AUTO', 8900, 75],
  ['DRREDDY', 'DR. REDDY S LABORATORIES', 1270, 625],
  ['CIPLA', 'CIPLA', 1520, 375],
  ['NESTLEIND', 'NESTLE INDIA', 1250, 500],
  ['HINDALCO', 'HINDALCO INDUSTRIES', 780, 700],
  ['GRASIM', 'GRASIM INDUSTRIES', 2850, 250],
  ['TECHM', 'TECH MAHINDRA', 1450, 600],
  ['INDUSINDBK', 'INDUSIND BANK', 760, 700],
  ['EICHERMOT', 'EICHER MOTORS', 6900, 175],
  ['BPCL', 'BHARAT PETROLEUM CORP', 340, 1975],
  ['HEROMOTOCO', 'HERO MOTOCORP', 5400, 150],
  ['IRCTC', 'INDIAN RAIL TOUR CORP', 720, 875],
  ['ZOMATO', 'ETERNAL', 320, 2425],
  ['DMART', 'AVENUE SUPERMARTS', 4200, 0],
  ['PIDILITIND', 'PIDILITE INDUSTRIES', 1480, 0],
  ['YESBANK', 'YES BANK', 22.35, 0],
  ['IDEA', 'VODAFONE IDEA', 9.15, 0],
  ['SUZLON', 'SUZLON ENERGY', 58.4, 0],
  ['IRFC', 'INDIAN RAILWAY FIN CORP', 125.6, 0],
  ['NHPC', 'NHPC', 83.2, 0],
  ['PNB', 'PUNJAB NATIONAL BANK', 118.45, 0],
];

/** The NSE symbols also listed on BSE (with their own tokens, as on the real exchanges). */
const BSE_LISTED = EQUITIES.slice(0, 30).map((e) => e[0]);

/** [name, spot, lot size, freeze quantity, strike step, exchange, weekly expiry weekday or -1]. */
const INDICES: ReadonlyArray<readonly [string, number, number, number, number, 'NFO' | 'BFO', number]> = [
  ['NIFTY', 25850, 75, 1800, 50, 'NFO', 2],
  ['BANKNIFTY', 58100, 35, 900, 100, 'NFO', -1],
  ['FINNIFTY', 27300, 65, 1800, 50, 'NFO', -1],
  ['MIDCPNIFTY', 13600, 140, 2800, 25, 'NFO', -1],
  ['SENSEX', 84500, 20, 1000, 100, 'BFO', 4],
];

/**
 * [symbol, name, price, lot size, freeze, tick, expiry day of month, multiplier]. Gold is quoted
 * per 10 g and traded per kg (GOLD, ×100) or 100 g (GOLDM, ×10); silver per kg, traded per 30 kg
 * (×30) or 5 kg (×5). Crude and gas count their quantity in barrels and mmBtu (×1).
 */
const COMMODITIES: ReadonlyArray<readonly [string, string, number, number, number, number, number, number]> = [
  ['GOLD', 'GOLD', 121500, 1, 200, 1, 5, 100],
  ['GOLDM', 'GOLD MINI', 121300, 1, 500, 1, 3, 10],
  ['SILVER', 'SILVER', 148000, 1, 200, 1, 5, 30],
  ['SILVERM', 'SILVER MINI', 147800, 1, 500, 1, 28, 5],
  ['CRUDEOIL', 'CRUDE OIL', 5480, 100, 10000, 1, 19, 1],
  ['NATURALGAS', 'NATURAL GAS', 312.4, 1250, 125000, 0.1, 24, 1],
];

/** A currency future's lot is USD/EUR/GBP 1,000 (JPY 1,00,000 quoted per 100): ×1,000. */
const CURRENCY_MULTIPLIER = 1000;

/** [symbol, name, price]. Currency futures tick in ₹0.0025, as on the exchange. */
const CURRENCIES: ReadonlyArray<readonly [string, string, number]> = [
  ['USDINR', 'USDINR', 88.62],
  ['EURINR', 'EURINR', 102.94],
  ['GBPINR', 'GBPINR', 117.38],
  ['JPYINR', 'JPYINR', 58.71],
];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** NSE's one-character month code in weekly option symbols (1–9, O, N, D). */
const WEEKLY_MONTH = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'O', 'N', 'D'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of a UTC-midnight date value. */
function ymd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The last `weekday` (0 = Sunday) of a month, as a UTC-midnight date. */
function lastWeekday(year: number, month: number, weekday: number): Date {
  const d = new Date(Date.UTC(year, month + 1, 0));
  while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() - 1);
  return d;
}

/**
 * A token whose low byte says what Kite's ticker expects of it (docs/kite.md §Instruments): the
 * ticker divides prices by 10⁷ for byte 3 (currency), 10⁴ for 6, treats 9 as an index, and by 100
 * otherwise. Currency tokens end in 3; no other token ends in 3, 6 or 9.
 */
function kiteLowByte(token: number, exchange: Exchange): number {
  const low = token & 0xff;
  if (exchange === 'CDS') return token - low + 3;
  return low === 3 || low === 6 || low === 9 ? token + 1 : token;
}

/** An expiry that falls on a closed day moves to the trading day before it, as on the exchange. */
function onTradingDay(d: Date): Date {
  let date = ymd(d);
  while (!isTradingDay(date)) date = addDays(date, -1);
  return new Date(`${date}T00:00:00Z`);
}

/** Whether a contract expiring on a date still trades (its expiry day's close is ahead). */
type Live = (expiry: Date) => boolean;

/** The next `count` live monthly expiries (last `weekday` of the month, moved off closed days). */
function monthlyExpiries(today: string, weekday: number, count: number, live: Live): Date[] {
  const t = new Date(`${today}T00:00:00Z`);
  const out: Date[] = [];
  for (let m = 0; out.length < count; m++) {
    const d = onTradingDay(lastWeekday(t.getUTCFullYear(), t.getUTCMonth() + m, weekday));
    if (live(d)) out.push(d);
  }
  return out;
}

/** The next `count` live weekly expiries on `weekday` (moved off closed days). */
function weeklyExpiries(today: string, weekday: number, count: number, live: Live): Date[] {
  const d = new Date(`${today}T00:00:00Z`);
  while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() + 1);
  const out: Date[] = [];
  for (let w = 0; out.length < count; w++) {
    const e = onTradingDay(new Date(d.getTime() + w * 7 * DAY_MS));
    if (live(e)) out.push(e);
  }
  return out;
}

/** The next `count` live expiries on a fixed day of the month (moved off closed days). */
function dayOfMonthExpiries(today: string, day: number, count: number, live: Live): Date[] {
  const t = new Date(`${today}T00:00:00Z`);
  const out: Date[] = [];
  for (let m = 0; out.length < count; m++) {
    const d = onTradingDay(new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + m, day)));
    if (live(d)) out.push(d);
  }
  return out;
}

const yy = (d: Date): string => String(d.getUTCFullYear() % 100).padStart(2, '0');
const mon = (d: Date): string => MONTHS[d.getUTCMonth()] ?? 'JAN';

/** When a contract expiring on `date` on `exchange` stops trading: that day's close. */
export function expiryClose(exchange: Exchange, date: string): number {
  return expiryInstant(exchange, date);
}

/**
 * An option's model premium (docs/api.md §Prices): Black–Scholes on the forward to its expiry,
 * at the smile's volatility for its strike (around `listedAt`, the underlying when listed).
 */
export function optionPremium(
  type: 'CE' | 'PE',
  spot: number,
  strike: number,
  expiresAt: number,
  now: number,
  atmVol: number,
  listedAt: number,
): number {
  const years = yearsTo(expiresAt, now);
  return blackScholes(type, futurePrice(spot, years), strike, years, smileVol(atmVol, strike, listedAt));
}

/** Rupees → price units on a tick grid, at least one tick. */
function onGrid(rupees: number, tickUnits: number): number {
  return Math.max(tickUnits, Math.round((rupees * PRICE_UNITS_PER_RUPEE) / tickUnits) * tickUnits);
}

/** Strike step for a stock's options, by price (NSE uses similar bands). */
function stockStrikeStep(price: number): number {
  if (price < 100) return 2.5;
  if (price < 500) return 10;
  if (price < 1000) return 20;
  if (price < 2500) return 50;
  if (price < 5000) return 100;
  return 250;
}

/** The underlyings of a universe, by key. */
export function underlyingsOf(instruments: readonly PaperInstrument[]): Map<string, UnderlyingSpec> {
  const out = new Map<string, UnderlyingSpec>();
  for (const i of instruments) {
    if (out.has(i.underlying)) continue;
    const kind: UnderlyingKind = INDICES.some((x) => x[0] === i.underlying)
      ? 'index'
      : COMMODITIES.some((x) => x[0] === i.underlying)
        ? 'commodity'
        : CURRENCIES.some((x) => x[0] === i.underlying)
          ? 'currency'
          : 'stock';
    const exchange: Exchange =
      kind === 'stock' ? 'NSE' : kind === 'commodity' ? 'MCX' : kind === 'currency' ? 'CDS' : i.exchange;
    out.set(i.underlying, { key: i.underlying, kind, exchange });
  }
  return out;
}

/** At-the-money volatility of an underlying's options. */
export function atmVolOf(kind: UnderlyingKind): number {
  return kind === 'index' ? ATM_VOL.index : kind === 'stock' ? ATM_VOL.stock : ATM_VOL.commodity;
}

/** The universe being listed: each instrument's token, and the shapes of option chains and futures series. */
interface Listing {
  readonly out: PaperInstrument[];
  readonly add: (
    i: Omit<PaperInstrument, 'token' | 'tickUnits' | 'multiplier' | 'thin' | 'expiresAt'> & {
      multiplier?: number;
      thin?: boolean;
    },
  ) => void;
  /** A chain of CE and PE strikes around the money, for one expiry. */
  readonly addOptions: (
    name: string,
    exchange: 'NFO' | 'BFO' | 'MCX',
    spot: number,
    step: number,
    strikes: number,
    lot: number,
    freeze: number,
    vol: number,
    expiry: Date,
    symbolDate: string,
    thin: boolean,
  ) => void;
  /** A futures contract per expiry. */
  readonly addFutures: (
    name: string,
    exchange: Exchange,
    spot: number,
    lot: number,
    freeze: number,
    tick: number,
    expiries: Date[],
    multiplier?: number,
  ) => void;
}

/** What every asset class's listing shares: the calendar, which expiries are live, the day's prices. */
interface ListingDay {
  /** The IST calendar day (YYYY-MM-DD). */
  readonly today: string;
  readonly live: (exchange: Exchange) => Live;
  /** The day's price of a listed base price (a few percent either side, from the seed). */
  readonly jitter: (price: number) => number;
}

function listing(now: number): Listing {
  const out: PaperInstrument[] = [];
  const used = new Set<number>();

  const add: Listing['add'] = (i) => {
    // Tokens come from the symbol, not a counter, so they survive a restart on another day
    // (when an expiry has dropped out of the list) and journaled orders still resolve.
    let token = kiteLowByte((fnv1a(`${i.exchange}:${i.tradingsymbol}`) % 2_000_000_000) + 1, i.exchange);
    while (used.has(token)) token += 256;
    used.add(token);
    out.push({
      ...i,
      multiplier: i.multiplier ?? 1,
      thin: i.thin ?? false,
      expiresAt: i.expiry === null ? null : expiryClose(i.exchange, i.expiry),
      token,
      tickUnits: toUnits(i.tickSize),
    });
  };

  const addOptions: Listing['addOptions'] = (
    name,
    exchange,
    spot,
    step,
    strikes,
    lot,
    freeze,
    vol,
    expiry,
    symbolDate,
    thin,
  ) => {
    const atm = Math.round(spot / step) * step;
    const expiresAt = expiryClose(exchange, ymd(expiry));
    for (let k = -strikes; k <= strikes; k++) {
      const strike = atm + k * step;
      if (strike <= 0) continue;
      for (const type of ['CE', 'PE'] as const) {
        const px = optionPremium(type, spot, strike, expiresAt, now, vol, spot);
        const tick = exchange === 'MCX' ? 0.5 : 0.05;
        add({
          exchange,
          tradingsymbol: `${name}${symbolDate}${strike}${type}`,
          name,
          segment: `${exchange}-OPT`,
          instrumentType: type,
          lotSize: lot,
          tickSize: tick,
          freezeQuantity: freeze,
          expiry: ymd(expiry),
          strike,
          baseUnits: onGrid(px, toUnits(tick)),
          bandPercent: 0, // options: band computed from the premium (see bandOf)
          underlying: name,
          underlyingBase: spot,
          thin,
        });
      }
    }
  };

  const addFutures: Listing['addFutures'] = (name, exchange, spot, lot, freeze, tick, expiries, multiplier = 1) => {
    for (const e of expiries) {
      add({
        exchange,
        tradingsymbol: `${name}${yy(e)}${mon(e)}FUT`,
        name,
        segment: `${exchange}-FUT`,
        instrumentType: 'FUT',
        lotSize: lot,
        tickSize: tick,
        freezeQuantity: freeze,
        multiplier,
        expiry: ymd(e),
        strike: null,
        baseUnits: onGrid(futurePrice(spot, yearsTo(expiryClose(exchange, ymd(e)), now)), toUnits(tick)),
        bandPercent: 10,
        underlying: name,
        underlyingBase: spot,
      });
    }
  };

  return { out, add, addOptions, addFutures };
}

/** Stocks on NSE (and BSE where listed), with their futures and one monthly option chain if they trade F&O. */
function listEquities(l: Listing, day: ListingDay): void {
  for (const [symbol, name, price, lot] of EQUITIES) {
    const spot = day.jitter(price);
    const tick = spot < 100 ? 0.01 : 0.05;
    for (const exchange of ['NSE', 'BSE'] as const) {
      if (exchange === 'BSE' && !BSE_LISTED.includes(symbol)) continue;
      l.add({
        exchange,
        tradingsymbol: symbol,
        name,
        segment: exchange,
        instrumentType: 'EQ',
        lotSize: 1,
        tickSize: tick,
        // Equities have no exchange freeze limit; the paper broker caps one order here.
        freezeQuantity: 100_000,
        expiry: null,
        strike: null,
        baseUnits: onGrid(spot, toUnits(tick)),
        bandPercent: lot > 0 ? 20 : 10,
        underlying: symbol,
        // BSE follows the NSE listing, which is the stock's price (docs/api.md §Prices).
        underlyingBase: fromUnits(onGrid(spot, toUnits(tick))),
        thin: exchange === 'BSE' || lot === 0,
      });
    }
    if (lot > 0) {
      const monthly = monthlyExpiries(day.today, 2, 3, day.live('NFO'));
      const stockSpot = fromUnits(onGrid(spot, toUnits(tick)));
      l.addFutures(symbol, 'NFO', stockSpot, lot, lot * 20, 0.05, monthly);
      const first = monthly[0] as Date;
      const firstCode = `${yy(first)}${mon(first)}`;
      l.addOptions(
        symbol,
        'NFO',
        stockSpot,
        stockStrikeStep(spot),
        5,
        lot,
        lot * 20,
        ATM_VOL.stock,
        first,
        firstCode,
        true,
      );
    }
  }
}

/** Indices: monthly futures, weekly option series where the index has them, and the first two monthly chains. */
function listIndices(l: Listing, day: ListingDay): void {
  for (const [name, price, lot, freeze, step, exchange, weekday] of INDICES) {
    const spot = day.jitter(price);
    const monthlyDay = exchange === 'BFO' ? 4 : 2;
    const monthly = monthlyExpiries(day.today, monthlyDay, 3, day.live(exchange));
    l.addFutures(name, exchange, spot, lot, freeze, exchange === 'BFO' ? 0.05 : 0.1, monthly);
    const monthlySet = new Set(monthly.map(ymd));
    if (weekday >= 0) {
      // Weekly series (symbol NIFTY25N1824000CE); the monthly expiry keeps its monthly symbol.
      for (const e of weeklyExpiries(day.today, weekday, 2, day.live(exchange))) {
        if (monthlySet.has(ymd(e))) continue;
        const code = `${yy(e)}${WEEKLY_MONTH[e.getUTCMonth()]}${String(e.getUTCDate()).padStart(2, '0')}`;
        l.addOptions(name, exchange, spot, step, 12, lot, freeze, ATM_VOL.index, e, code, false);
      }
    }
    for (const e of monthly.slice(0, 2)) {
      l.addOptions(name, exchange, spot, step, 10, lot, freeze, ATM_VOL.index, e, `${yy(e)}${mon(e)}`, false);
    }
  }
}

/** MCX commodities: futures, and crude oil's first option chain. */
function listCommodities(l: Listing, day: ListingDay): void {
  for (const [symbol, , price, lot, freeze, tick, dayOfMonth, multiplier] of COMMODITIES) {
    const spot = day.jitter(price);
    const expiries = dayOfMonthExpiries(day.today, dayOfMonth, 2, day.live('MCX'));
    l.addFutures(symbol, 'MCX', spot, lot, freeze, tick, expiries, multiplier);
    if (symbol === 'CRUDEOIL') {
      const e = expiries[0] as Date;
      l.addOptions(symbol, 'MCX', spot, 50, 5, lot, freeze, ATM_VOL.commodity, e, `${yy(e)}${mon(e)}`, true);
    }
  }
}

/** Currency futures on CDS. */
function listCurrencies(l: Listing, day: ListingDay): void {
  for (const [symbol, , price] of CURRENCIES) {
    const expiries = monthlyExpiries(day.today, 5, 2, day.live('CDS'));
    l.addFutures(symbol, 'CDS', day.jitter(price), 1, 10_000, 0.0025, expiries, CURRENCY_MULTIPLIER);
  }
}

/** Builds the universe; `now` (the market clock) fixes which expiries are live and what derivatives cost. */
export function generateInstruments(seed: number, now: number = Date.now()): PaperInstrument[] {
  const rng: Rng = deriveRng(seed, 'universe');
  const day: ListingDay = {
    today: istDate(now),
    live: (exchange) => (d) => expiryClose(exchange, ymd(d)) > now,
    jitter: (price) => price * (1 + (rng() - 0.5) * 0.04),
  };
  const l = listing(now);
  // In this order: the day's prices are drawn from one seeded sequence, and token clashes are
  // settled by who was listed first.
  listEquities(l, day);
  listIndices(l, day);
  listCommodities(l, day);
  listCurrencies(l, day);
  return l.out;
}

/** The day's price band in price units, `[low, high]`: orders priced outside it are REJECTED. */
export function bandOf(
  instrument: PaperInstrument,
  baseUnits: number = instrument.baseUnits,
): readonly [number, number] {
  const tick = instrument.tickUnits;
  if (instrument.instrumentType === 'CE' || instrument.instrumentType === 'PE') {
    // Options have wide, premium-relative bands: a cheap option may triple in a day.
    return [tick, Math.ceil((baseUnits * 4 + 200 * PRICE_UNITS_PER_RUPEE) / tick) * tick];
  }
  const width = (baseUnits * instrument.bandPercent) / 100;
  return [Math.max(tick, Math.ceil((baseUnits - width) / tick) * tick), Math.floor((baseUnits + width) / tick) * tick];
}
