/**
 * Held requests (docs/api.md §Holding replies): the control interface can hold every request
 * that matches a method and a path prefix at the door, before the broker handles it, until a
 * test releases it. A test that looks at an in-between state ("sending…", an order line at its
 * old and new price) holds the broker's answer, sees the state, then releases — never a timed
 * latency window that a loaded machine outruns.
 */

/** Which requests a hold stops: `method` (any when absent) and a path the request's starts with. */
export interface HoldSpec {
  readonly method?: string;
  readonly pathPrefix: string;
}

export interface HoldView extends HoldSpec {
  readonly id: string;
  /** Requests waiting at this hold now. */
  readonly waiting: number;
  /** Requests this hold has stopped so far (released or still waiting). */
  readonly held: number;
}

interface Hold {
  readonly spec: HoldSpec;
  readonly waiters: Array<() => void>;
  held: number;
}

export class ReplyHolds {
  readonly #holds = new Map<string, Hold>();
  #seq = 0;

  /** Starts holding matching requests; returns the hold's id. */
  add(spec: HoldSpec): string {
    const id = `h${++this.#seq}`;
    this.#holds.set(id, { spec: { ...spec, method: spec.method?.toUpperCase() }, waiters: [], held: 0 });
    return id;
  }

  /** Ends hold `id` (every hold when absent), letting what it holds through; returns the requests let through. */
  release(id?: string): number {
    let released = 0;
    for (const [key, hold] of this.#holds) {
      if (id !== undefined && key !== id) continue;
      this.#holds.delete(key);
      released += hold.waiters.length;
      for (const go of hold.waiters.splice(0)) go();
    }
    return released;
  }

  /** Resolves when no hold matches, at once when none does (the common case costs one lookup). */
  gate(method: string, path: string): Promise<void> | null {
    for (const hold of this.#holds.values()) {
      if (hold.spec.method !== undefined && hold.spec.method !== method.toUpperCase()) continue;
      if (!path.startsWith(hold.spec.pathPrefix)) continue;
      hold.held += 1;
      return new Promise((resolve) => hold.waiters.push(resolve));
    }
    return null;
  }

  list(): HoldView[] {
    return [...this.#holds].map(([id, h]) => ({ id, ...h.spec, waiting: h.waiters.length, held: h.held }));
  }
}
