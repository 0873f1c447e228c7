import type { BracketRequest, TrailSpec } from '@shared/domain/bracket';
import type { OrderRequest } from '@shared/domain/order';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';

/*
 * Test-only (and the crash tests' child processes, so no test runner here): the bracket requests
 * of the tests on the paper broker (docs/brackets.md). `bracket-scenario.ts` has the rest.
 */

/** A bracket on an entry order (docs/brackets.md): the request's `entry` kind. */
export type EntryBracketRequest = Extract<BracketRequest, { kind: 'entry' }>;

/** What a test changes of `infyBracket`: the entry order's fields, and each exit's price (null: none). */
export interface InfyBracketChanges {
  readonly entry?: Partial<OrderRequest>;
  readonly stop?: number | null;
  readonly target?: number | null;
  readonly trail?: TrailSpec | null;
}

/**
 * A bracket about an INFY market at 1,500: BUY `quantity` at MARKET (MIS, DAY), its stop-loss
 * triggered at 1,480 and its target at 1,530, no trail. Tests change what they are about.
 */
export function infyBracket(quantity: number, changes: InfyBracketChanges = {}): EntryBracketRequest {
  const stop = changes.stop === undefined ? 1480 : changes.stop;
  const target = changes.target === undefined ? 1530 : changes.target;
  return {
    kind: 'entry',
    entry: { ...INFY_MARKET_BUY, quantity, ...changes.entry },
    stop: stop === null ? null : { triggerPrice: stop },
    target: target === null ? null : { price: target },
    trail: changes.trail ?? null,
  };
}

/** A bracket on the position: the request's `protect` kind. */
export type ProtectRequest = Extract<BracketRequest, { kind: 'protect' }>;

/**
 * A protect of `quantity` INFY held long (MIS), its stop-loss triggered at 1,480 and its target
 * at 1,530, no trail. Tests change what they are about.
 */
export function infyProtect(quantity: number, changes: Omit<InfyBracketChanges, 'entry'> = {}): ProtectRequest {
  const { stop, target, trail } = infyBracket(quantity, changes);
  return {
    kind: 'protect',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    product: 'MIS',
    side: 'BUY',
    quantity,
    stop,
    target,
    trail,
  };
}
