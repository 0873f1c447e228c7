import type { EventName, EventPayload } from '@shared/ipc/contract';

type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

/**
 * Typed fan-out of the contract's push events from the services to every transport.
 *
 * The Electron window and the browser host's WebSocket both subscribe here, so an event is
 * produced once, in one place, whatever carries it.
 */
export class EventHub {
  readonly #listeners = new Map<EventName, Set<Listener<EventName>>>();

  /** Subscribes to one event; returns the unsubscribe function. */
  public on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as Listener<EventName>);
    return () => set.delete(listener as Listener<EventName>);
  }

  /** Subscribes to every event (a transport forwarding them all). */
  public onAny(listener: <E extends EventName>(event: E, payload: EventPayload<E>) => void): () => void {
    const any = (this.#any ??= new Set());
    any.add(listener);
    return () => any.delete(listener);
  }

  #any: Set<<E extends EventName>(event: E, payload: EventPayload<E>) => void> | undefined;

  /** Delivers an event; a throwing listener cannot stop the others. */
  public emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of this.#listeners.get(event) ?? []) safeCall(() => (l as Listener<E>)(payload));
    for (const l of this.#any ?? []) safeCall(() => l(event, payload));
  }
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error('event listener failed:', err);
  }
}
