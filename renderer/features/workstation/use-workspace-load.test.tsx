import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeskView } from '@shared/domain/workstation';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { savedLayouts, useSettingsActions } from '../../state/settings-store';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { shownTabs } from '../layout/tabs-store';
import { useDeskEvents, useDeskView } from './desk-queries';
import { useWorkspaceLoad } from './use-workspace-load';

/** A desk view just after workspace "Morning" was loaded for the `generation`th time. */
function loadedView(generation: number, left: number): DeskView {
  return {
    desk: { windows: [{ id: 'main', bounds: null, display: null, orientation: 'horizontal' }], panels: [], links: {} },
    open: ['main'],
    opener: 'page',
    workspaces: ['Morning'],
    loaded: {
      name: 'Morning',
      generation,
      layouts: { layout: { left, main: 100 - left } },
      tabs: { 'orders-trades': 'trades' },
    },
  };
}

let bridge: FakeBridge;

beforeEach(() => {
  localStorage.clear();
  bridge = createFakeBridge({ 'desk.view': () => ({ ok: true, data: loadedView(1, 30) }) });
  setBridgeForTests(bridge);
});

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('a loaded workspace’s sizes and tabs', () => {
  it('are applied once per load: a reload keeps the trader’s later resizing, the next load applies again', async () => {
    const first = renderHook(
      () => {
        useDeskEvents();
        return { key: useWorkspaceLoad(), actions: useSettingsActions() };
      },
      { wrapper },
    );
    await waitFor(() => expect(first.result.current.key).toBe('Morning#1'));
    expect(savedLayouts().layout).toEqual({ left: 30, main: 70 });
    expect(shownTabs()['orders-trades']).toBe('trades');

    // The trader resizes; the page reloads and reads the same load again: it is not re-applied.
    act(() => first.result.current.actions.layoutChanged('layout', { left: 40, main: 60 }));
    first.unmount();
    const again = renderHook(() => ({ view: useDeskView(), key: useWorkspaceLoad() }), { wrapper });
    await waitFor(() => expect(again.result.current.view?.loaded?.generation).toBe(1));
    expect(savedLayouts().layout).toEqual({ left: 40, main: 60 });
    again.unmount();

    // The workspace is loaded again (a new number): its sizes come back.
    const third = renderHook(
      () => {
        useDeskEvents();
        return useWorkspaceLoad();
      },
      { wrapper },
    );
    await waitFor(() => expect(bridge.callsOf('desk.view').length).toBe(3));
    act(() => bridge.emit('desk.changed', loadedView(2, 25)));
    await waitFor(() => expect(third.result.current).toBe('Morning#2'));
    expect(savedLayouts().layout).toEqual({ left: 25, main: 75 });
  });
});
