import { expect, vi } from 'vitest';
import type { Bracket } from '@shared/domain/bracket';
import type { ConnectionState } from '@shared/domain/session';
import type { CoreFixture, CoreOverrides } from './core-fixture';
import { coreOn, type Dialect } from './dialects';
import type { TradingCore } from '../trading-core';

/**
 * Test-only: the pieces of a bracket scenario on the real paper broker (docs/brackets.md) — a
 * core that keeps brackets on the stream, and the states the tests wait for; the requests are
 * `bracket-requests.ts`'s (`infyBracket`).
 */

/**
 * A core on the fixture's paper broker in `dialect`, its stream open and INFY subscribed (a
 * trailing stop follows `setPrice`), its brackets checked every 50 ms; `overrides` add to that.
 */
export async function bracketCore(
  fx: CoreFixture,
  dialect: Dialect,
  overrides: CoreOverrides = {},
): Promise<{ core: TradingCore; infy: number }> {
  const states: ConnectionState['stream'][] = [];
  const core = await coreOn(fx, dialect, {
    stream: true,
    brackets: { everyMs: 50 },
    ...overrides,
    events: {
      ...overrides.events,
      onConnection: (c) => {
        states.push(c.stream);
        overrides.events?.onConnection?.(c);
      },
    },
  });
  await vi.waitFor(() => expect(states.at(-1)).toBe('open'), { timeout: 10_000 });
  const infy = (await core.catalog.find('NSE', 'INFY'))?.instrumentToken ?? 0;
  core.setSubscriptions(new Set([infy]));
  return { core, infy };
}

/** The bracket `id` as main holds it now; throws if main has none. */
export function bracketNow(core: TradingCore, id: string): Bracket {
  const b = core.brackets.get(id);
  if (!b) throw new Error(`no bracket ${id}`);
  return b;
}

/** Waits until the bracket's stop-loss and target are both working at the broker. */
export async function exitsWorking(core: TradingCore, id: string): Promise<void> {
  await vi.waitFor(
    () =>
      expect([bracketNow(core, id).stop?.status, bracketNow(core, id).target?.status]).toEqual(['working', 'working']),
    { timeout: 10_000 },
  );
}
