import type { Exchange, Instrument } from '@shared/domain/instrument';
import type { OptionChain } from '@shared/domain/market';
import type { OrderRequest, TransactionType } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { expiryInstant } from '@shared/trading/market-hours';
import { fromUnits, roundToTick, toUnits } from '@shared/trading/money';
import { futurePrice, impliedVol, yearsTo } from '@shared/trading/options-pricing';
import type { StrategyLeg } from '@shared/strategy/strategy-model';
import { chainMove, placeTemplate, type StrategyTemplate } from '@shared/strategy/templates';
import { draftForInstrument, EMPTY_DRAFT, evaluateTicket } from '../ticket/ticket-model';

/**
 * The strategy builder's legs, without React (docs/strategy.md): a leg is a contract of the
 * instrument list, bought or sold in lots at an entry price the trader can edit. From here they
 * become the shared model's legs (valued with the chain's IVs) and, to place them, orders the
 * ticket's rules have judged — buys first.
 */

/** One leg as the builder holds it. */
export interface BuilderLeg {
  /** Stable across edits (React's key, the leg's name in the table). */
  readonly id: number;
  readonly instrumentToken: number;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  /** The underlying's name (the instrument's `name`). */
  readonly underlying: string;
  readonly kind: 'CE' | 'PE' | 'FUT';
  /** 0 for a future. */
  readonly strike: number;
  readonly expiry: string;
  readonly side: TransactionType;
  readonly lots: number;
  readonly lotSize: number;
  readonly multiplier: number;
  readonly tickSize: number;
  /** Entry price per unit: what the payoff is drawn from and the LIMIT price it is placed at. */
  readonly price: number;
}

/** At most this many legs (a broker's basket holds 20). */
export const MAX_STRATEGY_LEGS = 20;

let nextId = 1;

/** Whether an instrument can be a leg: an option or a future with an expiry. */
export function isDerivative(i: Instrument): i is Instrument & { instrumentType: 'CE' | 'PE' | 'FUT' } {
  return i.instrumentType !== 'EQ' && i.expiry !== null;
}

/** A leg on `instrument`, `lots` lots on `side` at `price` (on its tick). */
export function legOf(instrument: Instrument, side: TransactionType, price: number, lots = 1): BuilderLeg | null {
  if (!isDerivative(instrument) || instrument.expiry === null) return null;
  return {
    id: nextId++,
    instrumentToken: instrument.instrumentToken,
    exchange: instrument.exchange,
    tradingsymbol: instrument.tradingsymbol,
    underlying: instrument.name,
    kind: instrument.instrumentType,
    strike: instrument.instrumentType === 'FUT' ? 0 : (instrument.strike ?? 0),
    expiry: instrument.expiry,
    side,
    lots,
    lotSize: instrument.lotSize,
    multiplier: instrument.multiplier,
    tickSize: instrument.tickSize,
    price: roundToTick(price, instrument.tickSize),
  };
}

/** The contract of `underlying` with this kind, expiry and strike (a future: strike ignored). */
export function findContract(
  list: readonly Instrument[],
  underlying: string,
  kind: 'CE' | 'PE' | 'FUT',
  expiry: string,
  strike: number,
): Instrument | undefined {
  return list.find(
    (i) =>
      i.name === underlying &&
      i.instrumentType === kind &&
      i.expiry === expiry &&
      (kind === 'FUT' || i.strike === strike),
  );
}

/** Expiries (options first, then futures) and each expiry's strikes, for the legs' pickers. */
export function contractsOf(
  list: readonly Instrument[],
  underlying: string,
): { readonly expiries: readonly string[]; readonly strikes: ReadonlyMap<string, readonly number[]> } {
  const strikes = new Map<string, Set<number>>();
  for (const i of list) {
    if (i.name !== underlying || !isDerivative(i) || i.expiry === null) continue;
    const set = strikes.get(i.expiry) ?? new Set<number>();
    if (i.instrumentType !== 'FUT' && i.strike !== null) set.add(i.strike);
    strikes.set(i.expiry, set);
  }
  return {
    expiries: [...strikes.keys()].sort(),
    strikes: new Map([...strikes].map(([e, s]) => [e, [...s].sort((a, b) => a - b)])),
  };
}

/**
 * The leg moved to another contract (strike, expiry or kind changed in the table): the same side
 * and lots, the entry price the new contract's last price. Null when there is no such contract.
 */
export function legMoved(
  leg: BuilderLeg,
  change: { readonly kind?: 'CE' | 'PE' | 'FUT'; readonly strike?: number; readonly expiry?: string },
  list: readonly Instrument[],
  lastPrice: (token: number) => number | undefined,
): BuilderLeg | null {
  const kind = change.kind ?? leg.kind;
  const expiry = change.expiry ?? leg.expiry;
  let strike = change.strike ?? leg.strike;
  if (kind !== 'FUT' && strike === 0) {
    // From a future to an option: the strike nearest the future's price.
    const { strikes } = contractsOf(list, leg.underlying);
    const all = strikes.get(expiry) ?? [];
    strike = all.reduce((best, k) => (Math.abs(k - leg.price) < Math.abs(best - leg.price) ? k : best), all[0] ?? 0);
  }
  const i = findContract(list, leg.underlying, kind, expiry, strike);
  if (!i) return null;
  const moved = legOf(i, leg.side, lastPrice(i.instrumentToken) ?? i.lastPrice, leg.lots);
  return moved && { ...moved, id: leg.id };
}

/**
 * The IV a leg is valued at (a fraction): the chain's for its contract when a chain of its expiry
 * is at hand, else the volatility its own last price implies at `spot` (a broker without an option
 * chain). Null when neither can be had (no price, or expired).
 */
export function legVolatility(
  leg: BuilderLeg,
  chains: ReadonlyMap<string, OptionChain>,
  spot: number,
  lastPrice: number | undefined,
  now: number,
): number | null {
  if (leg.kind === 'FUT') return 0;
  const chain = chains.get(leg.expiry);
  const row = chain?.rows.find((r) => r.strike === leg.strike);
  const side = leg.kind === 'CE' ? row?.call : row?.put;
  if (side && side.iv > 0) return side.iv / 100;
  const years = yearsTo(expiryInstant(leg.exchange, leg.expiry), now);
  const premium = lastPrice ?? leg.price;
  if (years <= 0 || premium <= 0 || spot <= 0) return null;
  const vol = impliedVol(leg.kind, premium, futurePrice(spot, years), leg.strike, years);
  return vol > 0 ? vol : null;
}

/** The shared model's legs, each at the volatility `volOf` gives it (a leg with none is left out). */
export function modelLegs(legs: readonly BuilderLeg[], volOf: (leg: BuilderLeg) => number | null): StrategyLeg[] {
  const out: StrategyLeg[] = [];
  for (const leg of legs) {
    const iv = volOf(leg);
    if (iv === null) continue;
    out.push({
      kind: leg.kind,
      strike: leg.strike,
      expiresAt: expiryInstant(leg.exchange, leg.expiry),
      side: leg.side,
      quantity: leg.lots * leg.lotSize,
      price: leg.price,
      iv,
      multiplier: leg.multiplier,
    });
  }
  return out;
}

/** How far above its entry a buy leg's limit is set, in percent: a market-protected limit that fills now. */
export const BUY_PROTECTION_PCT = 2;

/** A buy leg's limit: its entry price raised by `BUY_PROTECTION_PCT`, up to the next tick. */
export function protectedBuyPrice(entry: number, tickSize: number): number {
  const tick = toUnits(tickSize);
  return fromUnits(Math.ceil(toUnits(entry * (1 + BUY_PROTECTION_PCT / 100)) / tick) * tick);
}

/**
 * The orders that place the strategy: each leg a DAY LIMIT in the
 * instrument's default product, judged by the ticket's rules — buys first, each at a protected
 * limit (`protectedBuyPrice`) above its entry or its live price, whichever is higher, so it fills
 * now even when the market has moved up since the leg was added; sells at their entry — so the long legs are filled
 * before the short legs that they hedge go (docs/strategy.md §Placing; docs/market.md §Basket
 * margin and hedging). A leg the rules refuse is named ("Leg 2: …") and nothing is returned.
 */
export function strategyOrders(
  legs: readonly BuilderLeg[],
  byToken: ReadonlyMap<number, Instrument>,
  livePrice: (instrumentToken: number) => number | undefined = () => undefined,
): { readonly orders: OrderRequest[]; readonly legs: BuilderLeg[] } | { readonly error: string } {
  const ordered = [...legs.filter((l) => l.side === 'BUY'), ...legs.filter((l) => l.side === 'SELL')];
  const orders: OrderRequest[] = [];
  for (const leg of ordered) {
    const n = legs.indexOf(leg) + 1;
    const instrument = byToken.get(leg.instrumentToken);
    if (!instrument) return { error: `Leg ${n}: ${leg.tradingsymbol} is not in the instrument list` };
    const draft = {
      ...draftForInstrument(
        { ...EMPTY_DRAFT, side: leg.side, orderType: 'LIMIT' },
        { ...instrument, lastPrice: leg.price },
      ),
      quantity: String(leg.lots * leg.lotSize),
      price: String(
        leg.side === 'BUY'
          ? protectedBuyPrice(Math.max(leg.price, livePrice(leg.instrumentToken) ?? 0), instrument.tickSize)
          : leg.price,
      ),
    };
    const judged = evaluateTicket(draft, instrument);
    if (!judged.request) {
      const message = Object.values(judged.errors)[0] ?? 'cannot be placed';
      return { error: `Leg ${n}: ${message}` };
    }
    orders.push(judged.request);
  }
  return { orders, legs: ordered };
}

/**
 * A template's legs on a chain (its strikes, its at-the-money strike), `width` strikes apart, in
 * `lots`; a calendar's far leg in `far` (the next expiry's chain). Each leg at its contract's last
 * price. Null when the chain's strikes do not reach, or a contract is missing.
 */
export function templateLegs(
  template: StrategyTemplate,
  near: OptionChain,
  far: OptionChain | undefined,
  byToken: ReadonlyMap<number, Instrument>,
  lastPrice: (token: number) => number | undefined,
  lots = 1,
  width = 1,
): BuilderLeg[] | null {
  const placed = placeTemplate(
    template,
    near.rows.map((r) => r.strike),
    near.atmStrike,
    width,
    // σ-placed legs (a condor's shorts) from the chain's own implied move (docs/strategy.md §Templates).
    chainMove(near),
  );
  if (!placed) return null;
  const legs: BuilderLeg[] = [];
  for (const p of placed) {
    const chain = p.expiry === 'far' ? far : near;
    const row = chain?.rows.find((r) => r.strike === p.strike);
    const side = p.kind === 'CE' ? row?.call : row?.put;
    const instrument = side ? byToken.get(side.instrumentToken) : undefined;
    if (!side || !instrument) return null;
    const leg = legOf(instrument, p.side, lastPrice(side.instrumentToken) ?? side.lastPrice, lots * p.ratio);
    if (!leg) return null;
    legs.push(leg);
  }
  return legs;
}

/**
 * An underlying's open positions as legs (docs/strategy.md §From positions): each derivative
 * position of that underlying, long as a buy and short as a sell, at its average price, in whole
 * lots (a position that is not a whole number of lots is left out, and counted).
 */
export function positionLegs(
  positions: readonly Position[],
  underlying: string,
  byToken: ReadonlyMap<number, Instrument>,
): { readonly legs: BuilderLeg[]; readonly skipped: number } {
  const legs: BuilderLeg[] = [];
  let skipped = 0;
  for (const p of positions) {
    if (p.quantity === 0) continue;
    const i = byToken.get(p.instrumentToken);
    if (!i || i.name !== underlying || !isDerivative(i)) continue;
    const lots = Math.abs(p.quantity) / i.lotSize;
    const leg = Number.isInteger(lots) ? legOf(i, p.quantity > 0 ? 'BUY' : 'SELL', p.averagePrice, lots) : null;
    if (leg) legs.push({ ...leg, price: p.averagePrice });
    else skipped++;
  }
  return { legs, skipped };
}

/** The underlyings of the open derivative positions, in the order they first appear. */
export function positionUnderlyings(
  positions: readonly Position[],
  byToken: ReadonlyMap<number, Instrument>,
): string[] {
  const names: string[] = [];
  for (const p of positions) {
    const i = byToken.get(p.instrumentToken);
    if (p.quantity !== 0 && i && isDerivative(i) && !names.includes(i.name)) names.push(i.name);
  }
  return names;
}
