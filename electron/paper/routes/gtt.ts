import { fromUnits, toUnits } from '@shared/trading/money';
import { type GttViolation, validateGtt } from '@shared/trading/gtt-rules';
import type { OrderField } from '@shared/trading/rules';
import { type WireGttLegRequest, WireGttChanges, WireGttRequest } from '../../wire/rest-schemas';
import type { BrokerState, Route } from '../context';
import type { GttCreate } from '../gtt';
import { readJson } from '../http-io';
import type { PaperInstrument } from '../instruments';
import { Problem, badField, notFound } from '../problem';
import { wireField } from '../rules-wire';
import { parseOr400 } from '../validation';
import { wireGtt } from '../wire-views';

/**
 * The GTT endpoints (docs/api.md §GTT): create, list, get, modify, delete. Checks run in the
 * order of POST /orders: auth → scope → media type and JSON → field schema → idempotency (409) →
 * instrument and GTT rules (400) → created. The /kite dialect's `/gtt/triggers` shares the rules.
 */

/** A GTT rule's field in the wire spelling: `triggerValues.1` → `trigger_values.1`, `legs.0.price` → `orders.0.price`. */
export function wireGttField(field: string): string {
  const [head, index, rest] = field.split('.');
  const base = head === 'triggerValues' ? 'trigger_values' : head === 'legs' ? 'orders' : (head ?? field);
  if (index === undefined) return base;
  return rest === undefined ? `${base}.${index}` : `${base}.${index}.${wireField(rest as OrderField)}`;
}

/** The one 400 for broken GTT rules, every field named in wire spelling; null when none. */
export function gttRulesProblem(
  violations: readonly GttViolation[],
  rename: (field: string) => string = wireGttField,
): Problem | null {
  if (violations.length === 0) return null;
  const errors = violations.map((v) => ({ field: rename(v.field), message: v.message }));
  const code = violations.some((v) => v.code === 'invalid_field') ? 'invalid_field' : 'invalid_combination';
  return new Problem(400, code, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
}

/** What the GTT rules and the book need from a request, in either dialect. */
export interface GttDraftIn {
  readonly type: GttCreate['type'];
  readonly triggerValues: readonly number[];
  readonly legs: readonly WireGttLegRequest[];
}

/**
 * Trigger values and legs → the book's validated form, or the 400 naming every broken rule
 * (against the instrument's last price now).
 */
export function toGttCreate(
  state: BrokerState,
  instrument: PaperInstrument,
  d: GttDraftIn,
  clientGttId: string | null,
  rename?: (field: string) => string,
): GttCreate {
  const problem = gttRulesProblem(
    validateGtt(
      {
        type: d.type,
        exchange: instrument.exchange,
        triggerValues: d.triggerValues,
        legs: d.legs.map((l) => ({
          transactionType: l.transaction_type,
          quantity: l.quantity,
          product: l.product,
          price: l.price,
        })),
      },
      instrument,
      fromUnits(state.market.ltp(instrument.token)),
    ),
    rename,
  );
  if (problem) throw problem;
  return {
    instrument,
    clientGttId,
    type: d.type,
    triggerUnits: d.triggerValues.map(toUnits),
    legs: d.legs.map((l) => ({
      transactionType: l.transaction_type,
      quantity: l.quantity,
      product: l.product,
      priceUnits: toUnits(l.price),
    })),
  };
}

function gttOr404(state: BrokerState, id: string) {
  const g = state.gtt.get(id);
  if (!g) throw notFound(`GTT ${id}`);
  return g;
}

export const gttRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/gtt',
    access: 'trade',
    ordersLimit: true,
    async handle({ req, state, now }) {
      const body = parseOr400(WireGttRequest, await readJson(req));
      if (body.client_gtt_id !== undefined && state.uniqueClientIds) {
        const existing = state.gtt.byClient(body.client_gtt_id);
        if (existing) {
          throw new Problem(
            409,
            'duplicate_client_gtt_id',
            `client_gtt_id ${body.client_gtt_id} already created GTT ${existing.gttId}; nothing was created`,
            [{ field: 'client_gtt_id', message: `already used by GTT ${existing.gttId}` }],
            { gtt_id: existing.gttId },
          );
        }
      }
      const instrument = state.market.lookup(body.exchange, body.tradingsymbol);
      if (!instrument) throw badField('tradingsymbol', `No instrument ${body.tradingsymbol} on ${body.exchange}`);
      const g = state.gtt.create(
        toGttCreate(
          state,
          instrument,
          { type: body.type, triggerValues: body.trigger_values, legs: body.orders },
          body.client_gtt_id ?? null,
        ),
        now,
      );
      return {
        status: 201,
        body: { gtt_id: g.gttId, client_gtt_id: g.clientGttId, status: g.status },
        headers: { Location: `/v1/gtt/${g.gttId}` },
      };
    },
  },
  {
    method: 'GET',
    path: '/gtt',
    access: 'read',
    handle({ state, query, now }) {
      state.gtt.sweep(now);
      const cid = query.get('client_gtt_id');
      const gtts = state.gtt
        .all()
        .filter((g) => cid === null || g.clientGttId === cid)
        .map(wireGtt);
      return { status: 200, body: { gtts }, etag: true };
    },
  },
  {
    method: 'GET',
    path: '/gtt/:gtt_id',
    access: 'read',
    handle({ state, params, now }) {
      state.gtt.sweep(now);
      return { status: 200, body: { gtt: wireGtt(gttOr404(state, params.gtt_id ?? '')) } };
    },
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: '/gtt/:gtt_id',
    access: 'trade',
    async handle({ req, state, params, now }) {
      const id = params.gtt_id ?? '';
      const changes = parseOr400(WireGttChanges, await readJson(req));
      const g = state.gtt.active(id, now);
      const instrument = state.market.instrument(g.token);
      if (!instrument) throw badField('tradingsymbol', `${g.tradingsymbol} no longer trades`);
      const c = toGttCreate(
        state,
        instrument,
        { type: g.type, triggerValues: changes.trigger_values, legs: changes.orders },
        g.clientGttId,
      );
      const after = state.gtt.modify(id, c, now);
      return { status: 200, body: { gtt_id: after.gttId, status: after.status } };
    },
  })),
  {
    method: 'DELETE',
    path: '/gtt/:gtt_id',
    access: 'trade',
    handle({ state, params, now }) {
      const g = state.gtt.cancel(params.gtt_id ?? '', now);
      return { status: 200, body: { gtt_id: g.gttId, status: g.status } };
    },
  },
];
