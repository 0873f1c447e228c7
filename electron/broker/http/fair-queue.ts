import { type CallClass, type CallerInfo, currentCaller } from './caller-context';

/** Classes in the order they are served. */
const CLASS_ORDER: readonly CallClass[] = ['account', 'bulk'];

/**
 * A waiting line that is fair between callers and puts account data first
 * (docs/brokers.md §Fair queuing).
 *
 * `shift()` serves the highest class that has anyone waiting (`account` before `bulk`), and
 * within a class takes turns between callers — one item each, in the order they first queued
 * — so 300 candle requests from one page wait behind, not in front of, another page's funds.
 * Within one caller and class, items keep their arrival order.
 *
 * It offers `push`, `shift` and `length` like the array it replaces in the token bucket; `push`
 * files an item under the caller of the call in progress unless told otherwise.
 */
export class FairQueue<T> {
  /** Per class, per caller, in the order callers take their turns. */
  readonly #lines = new Map<CallClass, Map<string, T[]>>(CLASS_ORDER.map((c) => [c, new Map()]));
  #length = 0;

  public get length(): number {
    return this.#length;
  }

  /** Queues `item` for `who` (by default the caller of the call in progress). */
  public push(item: T, who: CallerInfo = currentCaller()): number {
    const callers = this.#lines.get(who.cls) ?? (this.#lines.get('account') as Map<string, T[]>);
    let line = callers.get(who.caller);
    if (!line) callers.set(who.caller, (line = []));
    line.push(item);
    this.#length += 1;
    return this.#length;
  }

  /** The next item: highest class first, then the caller whose turn it is. */
  public shift(): T | undefined {
    for (const cls of CLASS_ORDER) {
      const callers = this.#lines.get(cls) as Map<string, T[]>;
      for (const [caller, line] of callers) {
        const item = line.shift() as T;
        // This caller has had its turn: to the back of the class, or out if it has no more.
        callers.delete(caller);
        if (line.length > 0) callers.set(caller, line);
        this.#length -= 1;
        return item;
      }
    }
    return undefined;
  }
}
