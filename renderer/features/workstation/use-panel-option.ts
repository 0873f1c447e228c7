import { useCallback, useState } from 'react';
import type { PanelOptions } from '@shared/domain/workstation';
import { call } from '../../lib/ipc-client';
import { useDeskPanel } from './desk-panel';

type OptionValue = PanelOptions[string];

/**
 * One of a panel's own settings (a chart's interval), kept on the desk with the panel
 * (docs/workstation.md §The desk): two charts each keep theirs, in whichever window, and a saved
 * workspace keeps them. Shown at once; stored with `desk.set`. Outside the desk it is plain state.
 * The setter keeps its identity while the panel does, so a memoised control taking it is not
 * drawn again on each tick its panel renders for (docs/live-data.md §A ticking list's cost).
 */
export function usePanelOption<T extends OptionValue>(
  name: string,
  fallback: T,
  valid: (v: unknown) => v is T,
): readonly [T, (value: T) => void] {
  const panel = useDeskPanel();
  const [local, setLocal] = useState<T | null>(null);
  const stored = panel?.options[name];
  const value = local ?? (valid(stored) ? stored : fallback);
  const set = useCallback(
    (next: T): void => {
      setLocal(next);
      if (panel)
        call('desk.set', { panel: { ...panel, options: { ...panel.options, [name]: next } } }).catch(() => undefined);
    },
    [panel, name],
  );
  return [value, set] as const;
}
