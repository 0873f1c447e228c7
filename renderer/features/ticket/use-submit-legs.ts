import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome, Placement } from '@shared/domain/placement';
import { usePlaceOrder } from '../orders/queries';
import { openPlacements, sameOrder } from '../placements/placement-model';
import { placementQueries } from '../placements/queries';
import { matchPlacement, ticketOutcome, type TicketOutcome } from './place-outcome';
import { heldBackText, placeBuysFirst } from '@shared/trading/buys-first';
import { call } from '../../lib/ipc-client';
import { legAnswer, sendsNext } from './slice-model';
import { newRequestId, type UnconfirmedWarning } from './use-submit-order';

/** One leg as the ticket tracks it. */
interface LegCall {
  readonly order: OrderRequest;
  /** `waiting`: not sent yet; `sending`: the call is out; `answered`; `not_sent`: stopped before it. */
  readonly phase: 'waiting' | 'sending' | 'answered' | 'not_sent';
  readonly requestId: string | null;
  readonly data: PlaceOutcome | undefined;
  readonly error: unknown;
  readonly listVersionAtAnswer: number | null;
}

/** What the ticket shows for one leg. */
export interface LegView {
  readonly quantity: number;
  /** The leg's outcome as the single-order ticket would tell it; `not_sent` when it never went out. */
  readonly outcome: TicketOutcome | { readonly kind: 'waiting' } | { readonly kind: 'not_sent' };
}

/** What the ticket needs to place a sliced order. */
export interface SubmitLegs {
  /** Null until the first slice is sent from this ticket. */
  readonly legs: readonly LegView[] | null;
  readonly pending: boolean;
  /** Sends `orders` one after another, unless one like them is unconfirmed and the trader has not seen that. */
  submit(orders: readonly OrderRequest[], options?: { readonly despiteUnconfirmed?: boolean }): void;
  readonly warning: UnconfirmedWarning | null;
  dismissWarning(): void;
  /** Sells held back because the buys before them did not fill in time: which buys are working. */
  readonly heldBack: string | null;
}

/**
 * Places the legs of a sliced order (docs/renderer.md, "Market depth, sessions and the option
 * chain on screen"): each leg is its own `orders.place` with its own request id, so main places
 * each exactly once; they go one after another, and the next goes only after the previous one was
 * placed and not rejected (`sendsNext`) — the rest are shown "not sent" — and a sell after a buy
 * goes only once that buy has filled (`shared/trading/buys-first.ts`), else the sells are "not
 * sent" and `heldBack` names the buys still working. Each leg's outcome is
 * read with the unconfirmed list exactly as a single order's is (`ticketOutcome`), so a lost reply
 * is "not yet confirmed", never "failed".
 */
export function useSubmitLegs(): SubmitLegs {
  const client = useQueryClient();
  const place = usePlaceOrder();
  const [calls, setCalls] = useState<readonly LegCall[] | null>(null);
  const [warned, setWarned] = useState<UnconfirmedWarning | null>(null);
  const [held, setHeld] = useState<string | null>(null);
  const running = useRef(false);
  // The latest sighting of each leg's intent, kept should main drop a settled entry from the list.
  const [kept, setKept] = useState<ReadonlyMap<string, Placement>>(new Map());
  const placements = useQuery(placementQueries.list());
  const listKey = placementQueries.list().queryKey;

  const update = (n: number, patch: Partial<LegCall>): void =>
    setCalls((all) => all && all.map((c, k) => (k === n ? { ...c, ...patch } : c)));

  const run = async (orders: readonly OrderRequest[]): Promise<void> => {
    running.current = true;
    setCalls(
      orders.map((order) => ({
        order,
        phase: 'waiting',
        requestId: null,
        data: undefined,
        error: undefined,
        listVersionAtAnswer: null,
      })),
    );
    setHeld(null);
    const stopAfter = (n: number): void =>
      setCalls((all) => all && all.map((c, k) => (k > n ? { ...c, phase: 'not_sent' } : c)));
    try {
      // Buys first, each sell only once the buys before it filled (docs/strategy.md §Placing).
      const result = await placeBuysFirst(orders, {
        place: async (order, n) => {
          const requestId = newRequestId();
          update(n, { phase: 'sending', requestId });
          let data: PlaceOutcome | undefined;
          let error: unknown;
          try {
            data = await place.mutateAsync({ order, requestId, clickedAt: Date.now() });
          } catch (e) {
            error = e;
          }
          update(n, {
            phase: 'answered',
            data,
            error,
            listVersionAtAnswer: client.getQueryState(listKey)?.dataUpdatedAt ?? 0,
          });
          const goOn = sendsNext(legAnswer(data, error));
          return { goOn, orderId: data?.state === 'placed' ? data.orderId : null };
        },
        read: (orderId) => call('orders.get', { orderId }),
        wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        now: Date.now,
      });
      if (result.kind === 'stopped') stopAfter(result.n);
      if (result.kind === 'held') {
        stopAfter(result.n - 1);
        setHeld(heldBackText(result.working));
      }
    } finally {
      running.current = false;
    }
  };

  const submit: SubmitLegs['submit'] = (orders, options) => {
    if (running.current || orders.length === 0) return;
    const twin = openPlacements(placements.data).find((p) => orders.some((o) => sameOrder(p.order, o)));
    if (twin && !options?.despiteUnconfirmed) {
      setWarned({ clientOrderId: twin.clientOrderId });
      return;
    }
    setWarned(null);
    void run(orders);
  };

  const list = { data: placements.data, version: placements.dataUpdatedAt };
  const sent = (calls ?? []).map((c) => ({
    c,
    call: {
      pending: c.phase === 'sending',
      requestId: c.requestId,
      data: c.data,
      error: c.error,
      listVersionAtAnswer: c.listVersionAtAnswer,
    },
  }));
  const seen = sent.map(({ c, call }) =>
    c.phase === 'answered' || c.phase === 'sending' ? matchPlacement(call, placements.data) : null,
  );
  const fresh = sent.filter(({ c }, n) => c.requestId !== null && seen[n] && kept.get(c.requestId) !== seen[n]);
  if (fresh.length > 0) {
    const next = new Map(kept);
    sent.forEach(({ c }, n) => {
      const p = seen[n];
      if (c.requestId !== null && p) next.set(c.requestId, p);
    });
    setKept(next);
  }
  const legs =
    calls === null
      ? null
      : sent.map(({ c, call }, n): LegView => {
          if (c.phase === 'waiting' || c.phase === 'not_sent')
            return { quantity: c.order.quantity, outcome: { kind: c.phase } };
          const matched = seen[n] ?? (c.requestId !== null ? (kept.get(c.requestId) ?? null) : null);
          return { quantity: c.order.quantity, outcome: ticketOutcome(call, list, matched) };
        });

  return {
    legs,
    pending: calls?.some((c) => c.phase === 'sending' || c.phase === 'waiting') ?? false,
    submit,
    warning: warned,
    dismissWarning: () => setWarned(null),
    heldBack: held,
  };
}
