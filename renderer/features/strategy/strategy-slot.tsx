import { lazy, Suspense } from 'react';
import { useStrategyActions, useStrategyLegs, useStrategyOpen } from './strategy-store';

// The builder's code (the chart, the model) loads the first time it is opened.
const Builder = lazy(() =>
  import('./strategy-builder').then(
    (m) => ({ default: m.StrategyBuilder }),
    () => ({ default: Unavailable }),
  ),
);

/** The strategy builder while it is open (docs/strategy.md), loaded on first use. */
export function StrategySlot() {
  const open = useStrategyOpen();
  const { closed } = useStrategyActions();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <Builder onClose={closed} />
    </Suspense>
  );
}

/** The header's way in: "Strategy", with the count of legs being built. */
export function StrategyHeaderButton() {
  const legs = useStrategyLegs().length;
  const { opened } = useStrategyActions();
  return (
    <button type="button" className="risk-chip" onClick={opened} data-testid="strategy-button">
      Strategy{legs ? ` (${legs})` : ''}
    </button>
  );
}

function Unavailable({ onClose }: { readonly onClose: () => void }) {
  return (
    <div role="alert" className="toast toast--bad">
      The strategy builder could not load (the app may have been updated): reload the page.{' '}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
