import { requests } from '@shared/ipc/contract';
import { OPEN_PLACEMENT_STATES } from '@shared/domain/placement';
import type { Dispatch } from '../dispatcher';

/**
 * An update never restarts the app over open work (docs/architecture.md §Release): while an order
 * is unconfirmed, a bracket is still acting or a kill-switch run is going, the install waits.
 * What the desk is doing is read through the same handlers the page reads; a read that fails
 * makes it unknown, and unknown waits too.
 */
export interface DeskActivity {
  /** Placements still being settled or waiting for the trader. */
  readonly unconfirmed: number;
  /** Brackets not yet done (waiting for their entry, or protecting a position). */
  readonly activeBrackets: number;
  /** A kill-switch or cancel-all run that has not ended. */
  readonly safetyRunning: boolean;
}

export type InstallDecision = { readonly ok: true } | { readonly ok: false; readonly waitingFor: readonly string[] };

export function installGate(activity: DeskActivity | null): InstallDecision {
  if (activity === null) return { ok: false, waitingFor: ["the desk's open work could not be read"] };
  const waitingFor = [
    ...(activity.unconfirmed > 0 ? [plural(activity.unconfirmed, 'order', 'not yet confirmed')] : []),
    ...(activity.activeBrackets > 0 ? [plural(activity.activeBrackets, 'bracket', 'still active')] : []),
    ...(activity.safetyRunning ? ['a kill-switch run in progress'] : []),
  ];
  return waitingFor.length === 0 ? { ok: true } : { ok: false, waitingFor };
}

function plural(n: number, noun: string, state: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'} ${state}`;
}

/** What the desk is doing now, or null when any of it cannot be read. */
export async function readDeskActivity(dispatch: Dispatch): Promise<DeskActivity | null> {
  const [placements, brackets, safety] = await Promise.all([
    dispatch('placements.list', undefined),
    dispatch('brackets.list', undefined),
    dispatch('safety.current', undefined),
  ]);
  if (!placements.ok || !brackets.ok || !safety.ok) return null;
  const run = requests['safety.current'].output.parse(safety.data);
  return {
    unconfirmed: requests['placements.list'].output
      .parse(placements.data)
      .filter((p) => OPEN_PLACEMENT_STATES.has(p.state)).length,
    activeBrackets: requests['brackets.list'].output.parse(brackets.data).filter((b) => b.phase !== 'done').length,
    safetyRunning: run?.state === 'running',
  };
}
