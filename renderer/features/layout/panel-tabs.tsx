import { createContext, useContext, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useShownTab, useTabsActions } from './tabs-store';
import './panel-tabs.css';

/**
 * Several panels sharing one slot of the workspace, one shown at a time (docs/renderer.md,
 * Layout on small screens): the shown panel draws the tab strip in its own header in place of
 * its title, so each panel stays the component it is alone (its title, freshness label and
 * actions unchanged) and a hidden one is not mounted at all — it neither polls nor streams.
 */

/** The strip a panel draws when it is shown in a tabbed slot. */
export interface TabStrip {
  readonly tabs: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly shown: string;
  /** The DOM id of a tab button (the shown one names the panel's region). */
  tabId(tab: string): string;
  /** Shows a tab; its button takes the focus once its panel is drawn (the strip is redrawn with it). */
  show(tab: string): void;
  /** True once for the tab just shown by `show`: its newly drawn button should take the focus. */
  takesFocus(tab: string): boolean;
}

const TabStripContext = createContext<TabStrip | null>(null);

/** The strip of the slot the calling panel is shown in, or null outside a tabbed slot. */
export function useTabStrip(): TabStrip | null {
  return useContext(TabStripContext);
}

/** Clears the strip for a panel's content, so a panel nested inside never draws it twice. */
export function NoTabStrip({ children }: { readonly children: ReactNode }) {
  return <TabStripContext.Provider value={null}>{children}</TabStripContext.Provider>;
}

/**
 * A tabbed slot: `tabs` are [id, label, panel]; the label should be the panel's own title. The
 * shown tab persists per `id` (`tabs-store.ts`); the first tab is shown until one is chosen.
 */
export function PanelTabs(props: {
  readonly id: string;
  readonly tabs: ReadonlyArray<readonly [id: string, label: string, panel: ReactNode]>;
}) {
  const base = useId();
  const focusNext = useRef<string | null>(null);
  const chosen = useShownTab(props.id);
  const { tabShown } = useTabsActions();
  const current = props.tabs.find(([id]) => id === chosen) ?? props.tabs[0];
  if (!current) return null;
  const strip: TabStrip = {
    tabs: props.tabs.map(([id, label]) => ({ id, label })),
    shown: current[0],
    tabId: (tab) => `${base}-tab-${tab}`,
    show: (tab) => {
      focusNext.current = tab;
      tabShown(props.id, tab);
    },
    takesFocus: (tab) => {
      if (focusNext.current !== tab) return false;
      focusNext.current = null;
      return true;
    },
  };
  return <TabStripContext.Provider value={strip}>{current[2]}</TabStripContext.Provider>;
}

/**
 * The tab buttons (WAI-ARIA tabs: one tab stop, ←/→/Home/End move and show). The shown tab's
 * button names the panel's region, so "Depth" or "Holdings" find it as its title would.
 */
export function TabList({ strip }: { readonly strip: TabStrip }) {
  const shownRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (strip.takesFocus(strip.shown)) shownRef.current?.focus();
  });
  const move = (e: KeyboardEvent<HTMLDivElement>): void => {
    const n = strip.tabs.findIndex((t) => t.id === strip.shown);
    const last = strip.tabs.length - 1;
    const to =
      e.key === 'ArrowRight'
        ? (n + 1) % (last + 1)
        : e.key === 'ArrowLeft'
          ? (n + last) % (last + 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (to === null) return;
    e.preventDefault();
    const tab = strip.tabs[to];
    if (!tab) return;
    strip.show(tab.id);
  };
  return (
    <div role="tablist" className="panel-tabs" onKeyDown={move}>
      {strip.tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={strip.tabId(t.id)}
          ref={t.id === strip.shown ? shownRef : undefined}
          aria-selected={t.id === strip.shown}
          tabIndex={t.id === strip.shown ? 0 : -1}
          className={t.id === strip.shown ? 'panel-tabs__tab is-on' : 'panel-tabs__tab'}
          onClick={() => strip.show(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
