import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { isWorking } from '@shared/domain/order';
import type { SafetyRequest } from '@shared/domain/safety-run';
import { describeError } from '../../lib/describe-error';
import { shortcutFor } from '../../lib/shortcuts';
import { Dialog } from '../layout/dialog';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { safetyQueries, useStartSafetyRun } from './queries';
import { useConfirming, useSafetyActions } from './safety-store';

/** The kill switch's hotkey, shown on its button and in its title. */
export const KILL_SWITCH_HOTKEY = 'Ctrl+Shift+K';

/** The header's kill switch: asks for confirmation, then cancels every working order (docs/contract.md §Kill switch). */
export function KillSwitchButton() {
  const { confirmAsked, runShown } = useSafetyActions();
  // While a kill switch's barrier is up, the header says trading is off and opens its run,
  // where the trader re-arms.
  const barrierUp = useQuery(safetyQueries.run()).data?.barrierUp === true;
  return (
    <>
      <button
        type="button"
        className="kill-switch"
        title={`Cancel every working order, and optionally exit every position (${KILL_SWITCH_HOTKEY})`}
        onClick={() => confirmAsked({ kind: 'killSwitch', exitPositions: false })}
      >
        Kill switch
      </button>
      {barrierUp ? (
        <button
          type="button"
          className="kill-switch-off"
          data-testid="trading-off"
          title="The kill switch is on: nothing that adds risk leaves the desk until you re-arm it"
          onClick={runShown}
        >
          Trading off · Re-arm…
        </button>
      ) : null}
    </>
  );
}

/** Ctrl+Shift+K (⌘⇧K on a Mac) opens the kill switch's confirmation from anywhere (the shortcuts registry's `kill-switch`). */
export function useKillSwitchHotkey(): void {
  const { confirmAsked } = useSafetyActions();
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (shortcutFor('anywhere', e) === 'kill-switch') {
        e.preventDefault();
        confirmAsked({ kind: 'killSwitch', exitPositions: false });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [confirmAsked]);
}

/** The confirmation every safety run asks for, saying what it will do and to how many orders and positions. */
export function SafetyConfirm({ action }: { readonly action: SafetyRequest }) {
  const { confirmClosed } = useSafetyActions();
  const start = useStartSafetyRun();
  const [exit, setExit] = useState(action.kind === 'killSwitch' && action.exitPositions);
  const orders = useQuery({ ...orderQueries.list(), enabled: false }).data ?? [];
  const positions = (useQuery({ ...portfolioQueries.positions(), enabled: false }).data ?? []).filter(
    (p) => p.quantity !== 0,
  );
  const working = orders.filter((o) => isWorking(o.status));
  const final: SafetyRequest = action.kind === 'killSwitch' ? { kind: 'killSwitch', exitPositions: exit } : action;

  let title: string;
  let body: ReactNode;
  let confirm: string;
  switch (action.kind) {
    case 'killSwitch':
      title = 'Kill switch';
      confirm = exit ? 'Cancel all and exit' : 'Cancel all orders';
      body = (
        <>
          <p>
            Cancel <strong>every working order</strong> ({working.length} on screen, after-market orders included).
          </p>
          <label className="check">
            <input type="checkbox" checked={exit} onChange={(e) => setExit(e.target.checked)} />
            Also exit every open position ({positions.length}) with market-protected LIMIT orders
          </label>
        </>
      );
      break;
    case 'cancelSymbol': {
      const n = working.filter(
        (o) => o.exchange === action.exchange && o.tradingsymbol === action.tradingsymbol,
      ).length;
      title = `Cancel all ${action.tradingsymbol}`;
      confirm = `Cancel all ${action.tradingsymbol} orders`;
      body = (
        <p>
          Cancel every working order of <strong>{action.tradingsymbol}</strong> ({n} on screen)?
        </p>
      );
      break;
    }
    case 'exitPositions':
      title = 'Exit positions';
      confirm = `Exit ${action.positions.length === 1 ? 'position' : `${action.positions.length} positions`}`;
      body = (
        <>
          <p>Exit with market-protected LIMIT orders (their working orders are cancelled first):</p>
          <ul className="safety-list">
            {action.positions.map((p) => (
              <li key={`${p.exchange}:${p.tradingsymbol}:${p.product}`}>
                {p.tradingsymbol} <span className="muted small">{p.exchange}</span> {p.product}
              </li>
            ))}
          </ul>
        </>
      );
      break;
  }
  return (
    <Dialog title={title} onClose={confirmClosed}>
      <div className="form">
        {body}
        {start.error ? (
          <p role="alert" className="inline-error">
            Not started: {describeError(start.error)}
          </p>
        ) : null}
        <div className="form__buttons">
          <button
            type="button"
            className="sell-button"
            data-autofocus
            disabled={start.isPending}
            onClick={() => start.mutate(final)}
          >
            {start.isPending ? 'Starting…' : confirm}
          </button>
          <button type="button" onClick={confirmClosed}>
            Back
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** The dialog that asks to confirm, when a run is waiting for it. */
export function SafetyConfirmSlot() {
  const action = useConfirming();
  return action ? <SafetyConfirm key={JSON.stringify(action)} action={action} /> : null;
}
