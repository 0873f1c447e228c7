/**
 * One read shared by every caller who asks for it before it leaves for the broker.
 *
 * A read still waiting for the client's limits has not seen the broker yet, so its reply is at
 * least as new as one a later caller would get by sending its own: a caller who asks meanwhile
 * joins it instead of queueing another request for the same data. Once it has left, the next
 * caller starts a new one — a placement's lookup must be sent after the things it is asked about
 * happened (docs/money-path.md, "Exactly-once orders"). Kite's lookups read the whole order book
 * (docs/kite.md §Orders), so the placements in doubt while the limiter is busy cost one request
 * between them instead of one each.
 */
export class ReadUntilSent<T> {
  #waiting: { readonly reply: Promise<T> } | null = null;

  /**
   * The reply of the read waiting to be sent, or of a new one: `read` sends it and calls `sent`
   * when the request leaves (after the client's limits admitted it).
   */
  public run(read: (sent: () => void) => Promise<T>): Promise<T> {
    if (this.#waiting) return this.#waiting.reply;
    let left = false;
    const leave = (): void => {
      left = true;
      if (this.#waiting === batch) this.#waiting = null;
    };
    const reply = read(leave);
    const batch = { reply };
    if (!left) this.#waiting = batch;
    // A read that fails before it leaves (its caller gave up) must not hold later callers.
    reply.then(leave, leave);
    return reply;
  }
}
