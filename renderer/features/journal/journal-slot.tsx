import { lazy, Suspense, useCallback } from 'react';
import { create } from 'zustand';

/** Whether the journal is open (UI state). */
const useJournalOpenStore = create<{ open: boolean; set: (open: boolean) => void }>()((set) => ({
  open: false,
  set: (open) => set({ open }),
}));

// The journal's code (its screen, calendar and charts) loads the first time it is opened.
const Screen = lazy(() =>
  import('./journal-screen').then(
    (m) => ({ default: m.JournalScreen }),
    () => ({ default: Unavailable }),
  ),
);

/** The journal while it is open (docs/journal.md), loaded on first use. */
export function JournalSlot() {
  const { open, set } = useJournalOpenStore();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <Screen onClose={() => set(false)} />
    </Suspense>
  );
}

/** Opens the journal (the header's button, the command palette). */
export const useJournalOpener = (): (() => void) => {
  const set = useJournalOpenStore((s) => s.set);
  return useCallback(() => set(true), [set]);
};

/** The header's way in. */
export function JournalHeaderButton() {
  const set = useJournalOpenStore((s) => s.set);
  return (
    <button type="button" className="risk-chip" onClick={() => set(true)} data-testid="journal-button">
      Journal
    </button>
  );
}

function Unavailable({ onClose }: { readonly onClose: () => void }) {
  return (
    <div role="alert" className="toast toast--bad">
      The journal could not load (the app may have been updated): reload the page.{' '}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
