import { randomBytes } from 'node:crypto';
import type { Gtt, GttAck, GttChanges, GttPlaceOutcome, GttRequest } from '@shared/domain/gtt';
import type { Instrument } from '@shared/domain/instrument';
import { AppError } from '@shared/ipc/app-error';
import { type GttViolation, validateGtt } from '@shared/trading/gtt-rules';
import type { Broker, PlaceGttCommand } from '../../broker/broker';
import { AMBIGUOUS_KINDS, TransportFailure, brokerError } from '../../broker/broker-error';
import type { RiskGuard, RiskMode } from '../risk/risk-guard';
import type { KillBarrier } from '../safety/kill-barrier';

/**
 * GTTs in main (docs/gtt.md): the rules are applied here before anything is sent, a create is
 * sent once under a client reference main chose, and an answer is one of the three honest ones —
 * placed (its id), refused (a failed call: nothing was created), or not yet confirmed (settled by
 * reading the broker's GTT list, never reported as failed).
 */

/** A fresh client reference for one GTT creation: `gtt-` and 24 random characters. */
export function newClientGttId(): string {
  return `gtt-${randomBytes(18).toString('base64url')}`;
}

/** How many request ids' answers are kept for a repeated call (a double click, a renderer retry). */
const REMEMBERED_REQUESTS = 256;

/** What the GTT service needs. */
export interface GttServiceDeps {
  readonly broker: Broker;
  /** The instrument a GTT names, from the catalog. */
  readonly find: (exchange: Instrument['exchange'], tradingsymbol: string) => Promise<Instrument | undefined>;
  /** The last price now (a recent tick, else a quote); 0 when the broker has none. */
  readonly lastPrice: (instrumentToken: number) => Promise<number>;
  readonly newId?: () => string;
  /** The trader's risk limits, as far as they can be known when a GTT is made (docs/contract.md §Risk guard). */
  readonly guard?: Pick<RiskGuard, 'checkGtt'>;
  /**
   * The kill switch's barrier (docs/contract.md §Kill switch): while it is up, a GTT is made only
   * when every order it would place only reduces what is held.
   */
  readonly barrier?: Pick<KillBarrier, 'blocks'>;
}

/** The rules' refusal as the bridge's error: every field named, in the app's spelling. */
function refusal(violations: readonly GttViolation[]): AppError {
  const fields = violations.map((v) => ({ field: v.field, message: v.message }));
  return brokerError('bad_request', fields.map((f) => `${f.field}: ${f.message}`).join('; '), {
    field: fields[0]?.field ?? 'body',
    fields,
  });
}

export class GttService {
  readonly #deps: GttServiceDeps;
  /** The renderer's request ids → the answer of their one creation (a repeated call never sends twice). */
  readonly #byRequest = new Map<string, Promise<GttPlaceOutcome>>();

  public constructor(deps: GttServiceDeps) {
    this.#deps = deps;
  }

  /** Every GTT the broker holds, newest first. */
  public async list(): Promise<readonly Gtt[]> {
    const all = await this.#deps.broker.listGtts();
    return [...all].reverse();
  }

  /**
   * Creates a GTT once. `requestId` (the renderer's, per click) makes a repeated call answer
   * the first call's outcome instead of sending again.
   */
  public place(request: GttRequest, requestId?: string, risk: RiskMode = 'check'): Promise<GttPlaceOutcome> {
    if (requestId === undefined) return this.#place(request, risk);
    const known = this.#byRequest.get(requestId);
    if (known) return known;
    const p = this.#place(request, risk);
    this.#byRequest.set(requestId, p);
    // Only recent clicks can repeat: the oldest answers are forgotten past a bound.
    if (this.#byRequest.size > REMEMBERED_REQUESTS) {
      const oldest = this.#byRequest.keys().next().value;
      if (oldest !== undefined) this.#byRequest.delete(oldest);
    }
    // A refusal may be corrected and clicked again under the same id: forget failed attempts.
    p.catch(() => this.#byRequest.delete(requestId));
    return p;
  }

  /** The instrument, its last price, and the rules — or the refusal naming every field. */
  async #judge(
    what: Pick<GttRequest, 'type' | 'exchange' | 'tradingsymbol'> & GttChanges,
    risk: RiskMode,
  ): Promise<{ readonly instrument: Instrument; readonly lastPrice: number }> {
    const instrument = await this.#deps.find(what.exchange, what.tradingsymbol);
    if (!instrument) {
      throw brokerError('bad_request', `No instrument ${what.tradingsymbol} on ${what.exchange}`, {
        field: 'tradingsymbol',
      });
    }
    const lastPrice = await this.#deps.lastPrice(instrument.instrumentToken);
    const violations = validateGtt(what, instrument, lastPrice);
    if (violations.length > 0) throw refusal(violations);
    await this.#deps.guard?.checkGtt(what, instrument, risk);
    if (lastPrice <= 0) {
      throw brokerError(
        'bad_request',
        `No last price for ${what.tradingsymbol} yet: a trigger needs one to be judged`,
        {
          field: 'triggerValues',
        },
      );
    }
    return { instrument, lastPrice };
  }

  async #place(request: GttRequest, risk: RiskMode): Promise<GttPlaceOutcome> {
    const { lastPrice } = await this.#judge(request, risk);
    for (const leg of request.legs) {
      const barred = this.#deps.barrier?.blocks({
        ...leg,
        exchange: request.exchange,
        tradingsymbol: request.tradingsymbol,
      });
      if (barred) throw brokerError('forbidden', barred);
    }
    const clientGttId = (this.#deps.newId ?? newClientGttId)();
    const command: PlaceGttCommand = { ...request, clientGttId, lastPrice };
    try {
      const ack = await this.#deps.broker.placeGtt(command);
      return { state: 'placed', gttId: ack.gttId, clientGttId };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // Provably never sent: nothing was created, so it is an honest refusal.
      if (e instanceof TransportFailure && e.reach === 'not_sent') throw e;
      const ambiguous = AMBIGUOUS_KINDS.has(e.info.kind) || e.info.kind === 'unexpected_shape';
      // A 409 on our own fresh reference means an earlier attempt of it arrived: it exists.
      if (!ambiguous && e.info.kind !== 'conflict') throw e;
      return this.#settle(command);
    }
  }

  /** After an ambiguous create: one lookup; found → placed, else not yet confirmed (the list settles it). */
  async #settle(command: PlaceGttCommand): Promise<GttPlaceOutcome> {
    const found = await this.#deps.broker.findGtts(command).catch(() => [] as readonly Gtt[]);
    const first = found[0];
    if (first) return { state: 'placed', gttId: first.gttId, clientGttId: command.clientGttId };
    return {
      state: 'unconfirmed',
      clientGttId: command.clientGttId,
      detail:
        'The broker did not confirm this GTT. It may still have been created: check the GTT list before creating it again',
    };
  }

  /** New trigger values and orders for an active GTT, judged like a creation; sent once. */
  public async modify(gttId: string, changes: GttChanges, risk: RiskMode = 'check'): Promise<GttAck> {
    const gtt = (await this.#deps.broker.listGtts()).find((g) => g.gttId === gttId);
    if (!gtt) throw brokerError('not_found', `GTT ${gttId} is not at the broker`, { field: 'gttId' });
    if (gtt.status !== 'active') {
      throw brokerError('conflict', `GTT ${gttId} is ${gtt.status}; only an active GTT can change`, { field: 'gttId' });
    }
    const { lastPrice } = await this.#judge({ ...gtt, ...changes }, risk);
    return this.#deps.broker.modifyGtt(gtt, changes, lastPrice);
  }

  /** Deletes a GTT (an idempotent write: a lost reply is safely repeated). */
  public delete(gttId: string): Promise<GttAck> {
    return this.#deps.broker.deleteGtt(gttId);
  }
}
