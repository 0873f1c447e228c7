import { createContext, useContext, type ReactNode } from 'react';
import type { DeskPanel } from '@shared/domain/workstation';

/**
 * Which desk panel a component is drawn as (docs/workstation.md §The desk): the slot or the
 * pop-out that draws a panel provides it, so the panel's header can offer "Pop out" and the
 * colour chip, and the panel reads its instrument and options from it. Outside the desk (a
 * unit test, a dialog) there is none and a panel behaves as it always did.
 */
const DeskPanelContext = createContext<DeskPanel | null>(null);

export function DeskPanelProvider({ panel, children }: { readonly panel: DeskPanel; readonly children: ReactNode }) {
  return <DeskPanelContext.Provider value={panel}>{children}</DeskPanelContext.Provider>;
}

/** The desk panel the caller is drawn as, or null. */
export function useDeskPanel(): DeskPanel | null {
  return useContext(DeskPanelContext);
}
