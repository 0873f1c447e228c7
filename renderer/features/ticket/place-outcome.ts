import type { OrderStatus } from '@shared/domain/order';
import type { PlaceOutcome, Placement } from '@shared/domain/placement';
import type { IpcError } from '@shared/ipc/result';
import { AppError } from '@shared/ipc/app-error';
import { isRefusal } from '../placements/placement-model';

/**
 * What the ticket tells the trader about their last click, without React (docs/money-path.md,
 * "The money path on screen"). Exactly one of: placing; placed (order id); refused (nothing was
 * created); not yet confirmed (with the reference), which the unconfirmed list later turns into
 * placed, not placed, or a decision for the trader.
 */
export type TicketOutcome =
  | { readonly kind: 'idle' }
  | { readonly kind: 'placing' }
  | {
      readonly kind: 'placed';
      readonly orderId: string;
      readonly clientOrderId: string;
      readonly status: OrderStatus | null;
    }
  | { readonly kind: 'refused'; readonly error: IpcError }
  | {
      readonly kind: 'unconfirmed';
      /** The intent's reference, once known (a lost reply does not carry it until the list arrives). */
      readonly clientOrderId: string | null;
      /**
       * `broker`: main is asking the broker. `lost_contact`: the link to main dropped mid-call.
       * `unreadable`: main's answer could not be read.
       */
      readonly why: 'broker' | 'lost_contact' | 'unreadable';
      /** True once the list was read after the answer and holds no intent for this click. */
      readonly noRecord: boolean;
    }
  | { readonly kind: 'needs_decision'; readonly placement: Placement }
  | { readonly kind: 'not_placed'; readonly clientOrderId: string; readonly detail: string }
  | { readonly kind: 'discarded'; readonly clientOrderId: string };

/** The state of the ticket's one placement call, as the submit hook tracks it. */
export interface PlacementCall {
  readonly pending: boolean;
  /** The request id of the last click; null before the first. */
  readonly requestId: string | null;
  readonly data: PlaceOutcome | undefined;
  readonly error: unknown;
  /** The list's version when the last call was answered, to tell a list read after it from one read before. */
  readonly listVersionAtAnswer: number | null;
}

/** The unconfirmed list as the ticket reads it. */
export interface PlacementList {
  readonly data: readonly Placement[] | undefined;
  /** When the list was last read or pushed (react-query's `dataUpdatedAt`): grows with every read. */
  readonly version: number;
}

/** An intent's state in the list, as the ticket shows it. */
function fromPlacement(p: Placement): TicketOutcome {
  switch (p.state) {
    case 'checking':
      return { kind: 'unconfirmed', clientOrderId: p.clientOrderId, why: 'broker', noRecord: false };
    case 'needs_decision':
    case 'unverifiable':
      return { kind: 'needs_decision', placement: p };
    case 'placed':
      return p.orderId
        ? { kind: 'placed', orderId: p.orderId, clientOrderId: p.clientOrderId, status: p.status }
        : { kind: 'unconfirmed', clientOrderId: p.clientOrderId, why: 'broker', noRecord: false };
    case 'not_placed':
      return { kind: 'not_placed', clientOrderId: p.clientOrderId, detail: p.detail };
    case 'discarded':
      return { kind: 'discarded', clientOrderId: p.clientOrderId };
  }
}

/**
 * The intent of the ticket's last click in the list: by its reference once main gave one, else
 * (after a lost or unreadable answer) by the click's request id. A refusal or a placed answer
 * needs none.
 */
export function matchPlacement(call: PlacementCall, placements: readonly Placement[] | undefined): Placement | null {
  if (call.pending || call.data?.state === 'placed' || isRefusal(call.error)) return null;
  const list = placements ?? [];
  if (call.data?.state === 'unconfirmed') {
    const cid = call.data.clientOrderId;
    return list.find((x) => x.clientOrderId === cid) ?? null;
  }
  if (call.error === null || call.error === undefined || call.requestId === null) return null;
  return list.find((x) => x.requestId === call.requestId) ?? null;
}

/**
 * The one outcome to show: the call's own answer, overtaken by what the unconfirmed list knows of
 * its intent (`matched`: the latest sighting, kept by the caller should main later drop a settled
 * entry from the list, so a settled answer never reverts to "checking").
 */
export function ticketOutcome(call: PlacementCall, list: PlacementList, matched: Placement | null): TicketOutcome {
  if (call.pending) return { kind: 'placing' };
  if (call.data?.state === 'placed') {
    const { orderId, clientOrderId, status } = call.data;
    return { kind: 'placed', orderId, clientOrderId, status };
  }
  if (matched) return fromPlacement(matched);
  if (call.data?.state === 'unconfirmed') {
    return { kind: 'unconfirmed', clientOrderId: call.data.clientOrderId, why: 'broker', noRecord: false };
  }
  if (call.error === null || call.error === undefined) return { kind: 'idle' };
  if (isRefusal(call.error)) return { kind: 'refused', error: call.error.info };
  const lost = call.error instanceof AppError && call.error.info.kind === 'disconnected';
  return {
    kind: 'unconfirmed',
    clientOrderId: null,
    why: lost ? 'lost_contact' : 'unreadable',
    noRecord: list.data !== undefined && call.listVersionAtAnswer !== null && list.version > call.listVersionAtAnswer,
  };
}

/** True while the ticket's last click may still become an order (so placing again deserves a warning). */
export function isUndecided(o: TicketOutcome): boolean {
  return o.kind === 'unconfirmed' || o.kind === 'needs_decision';
}
