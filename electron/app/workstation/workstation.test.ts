import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeskPanel, DeskView } from '@shared/domain/workstation';
import { AppError } from '@shared/ipc/app-error';
import { requests } from '@shared/ipc/contract';
import { SettingsStore } from '../settings/settings-store';
import { Workstation, type WorkstationTimers } from './workstation';

/** Timers a test fires by hand: nothing waits on the wall clock. */
function manualTimers(): WorkstationTimers & { fire(): void; pending(): number } {
  let queue = new Map<number, () => void>();
  let next = 1;
  return {
    set: (fn) => {
      queue.set(next, fn);
      return next++;
    },
    clear: (h) => void queue.delete(h as number),
    fire: () => {
      const due = queue;
      queue = new Map();
      for (const fn of due.values()) fn();
    },
    pending: () => queue.size,
  };
}

const chart = (over: Partial<DeskPanel> = {}): DeskPanel => ({
  id: 'chart',
  kind: 'chart',
  window: 'main',
  link: 'red',
  instrument: null,
  options: {},
  ...over,
});

let dir: string;
let settings: SettingsStore;
let timers: ReturnType<typeof manualTimers>;
let views: DeskView[];
let gone: string[][];

function workstation(opener: 'main' | 'page' = 'page'): Workstation {
  return new Workstation({
    settings,
    opener,
    changed: (v) => views.push(v),
    windowsGone: (ids) => gone.push([...ids]),
    timers,
    graceMs: 3_000,
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-workstation-'));
  settings = new SettingsStore(join(dir, 'settings.json'));
  timers = manualTimers();
  views = [];
  gone = [];
});

describe('the desk: panels move into windows and come back', () => {
  it('detaches a panel into a new window, and closing that window returns it to the main window with its state', async () => {
    const ws = workstation();
    await ws.use('paper');
    const w = ws.movePanel(chart({ link: null, instrument: 408065, options: { interval: '15minute' } }), 'new');
    expect(w).toBe('w1');
    expect(ws.view().desk.windows.map((x) => x.id)).toEqual(['main', 'w1']);
    expect(ws.view().desk.panels).toEqual([
      chart({ window: 'w1', link: null, instrument: 408065, options: { interval: '15minute' } }),
    ]);
    expect(views.at(-1)?.desk.panels[0]?.window).toBe('w1');

    ws.closeWindow('w1');
    expect(ws.view().desk.windows.map((x) => x.id)).toEqual(['main']);
    // Back in the main window, still unlinked on its own instrument and interval.
    expect(ws.view().desk.panels).toEqual([
      chart({ link: null, instrument: 408065, options: { interval: '15minute' } }),
    ]);
    expect(gone).toEqual([['w1']]);
  });

  it('opens a second chart in a window of its own, numbered, and a pop-out emptied by a move closes', async () => {
    const ws = workstation();
    await ws.use('paper');
    const a = ws.openPanel({ kind: 'chart', link: null, instrument: 1, options: {} }, 'new');
    const b = ws.openPanel({ kind: 'chart', link: 'green', instrument: 2, options: {} }, a.window);
    expect([a, b]).toEqual([
      { panel: 'chart-2', window: 'w1' },
      { panel: 'chart-3', window: 'w1' },
    ]);
    const depth = ws.movePanel({ ...chart(), id: 'depth', kind: 'depth' }, 'new');
    expect(depth).toBe('w2');
    // The depth goes to w1: w2 has nothing left and closes.
    ws.movePanel({ ...chart(), id: 'depth', kind: 'depth', window: 'w2' }, 'w1');
    expect(ws.view().desk.windows.map((x) => x.id)).toEqual(['main', 'w1']);
    expect(gone).toEqual([['w2']]);
    ws.removePanel('chart-2');
    expect(ws.view().desk.panels.map((p) => p.id)).toEqual(['chart-3', 'depth']);
  });

  it('refuses what the desk cannot take, naming the field', async () => {
    const ws = workstation();
    await ws.use('paper');
    const refused = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (e) {
        return e instanceof AppError ? e.info : e;
      }
      return null;
    };
    expect(refused(() => ws.movePanel(chart(), 'w7'))).toMatchObject({ kind: 'bad_request', field: 'to' });
    expect(refused(() => ws.closeWindow('main'))).toMatchObject({ kind: 'bad_request', field: 'window' });
    expect(refused(() => ws.removePanel('chart'))).toBeNull(); // not on the desk: nothing to do
    ws.setPanel(chart({ link: 'blue' }));
    expect(refused(() => ws.removePanel('chart'))).toMatchObject({ field: 'panel' });
    expect(refused(() => ws.setPanel({ ...chart(), kind: 'depth' }))).toMatchObject({ field: 'panel.kind' });
  });

  it('keeps each colour group’s instrument', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.link('red', 408065);
    ws.link('green', 738561);
    expect(ws.view().desk.links).toEqual({ red: 408065, green: 738561 });
  });
});

describe('windows open while a page draws them', () => {
  it('a browser pop-out whose page is gone past the grace closes, and its panel returns', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.pageOpened('bridge-1', null);
    ws.pageOpened('bridge-2', 'w1');
    expect(ws.view().open).toEqual(['main', 'w1']);
    ws.pageClosed('bridge-2');
    expect(ws.view().open).toEqual(['main']);
    expect(ws.view().desk.windows).toHaveLength(2); // not yet: a reload comes back within the grace
    timers.fire();
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main']);
    expect(ws.view().desk.panels[0]?.window).toBe('main');
  });

  it('a pop-out reloaded within the grace keeps its window', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.pageOpened('bridge-2', 'w1');
    ws.pageClosed('bridge-2');
    ws.pageOpened('bridge-3', 'w1');
    timers.fire();
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w1']);
    expect(ws.view().open).toEqual(['w1']);
  });

  it('a workspace loaded just after a pop-out closed keeps the workspace’s pop-out and its chart there', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.saveWorkspace('Two screens', {}, {});
    ws.pageOpened('bridge-1', null);
    ws.pageOpened('bridge-2', 'w1');
    // The trader closes the pop-out, then loads the workspace before the grace is over; the
    // workspace's pop-out (w1 again) has no page yet — its window is still opening.
    ws.pageClosed('bridge-2');
    ws.loadWorkspace('Two screens');
    timers.fire();
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w1']);
    expect(ws.view().desk.panels.find((p) => p.kind === 'chart')?.window).toBe('w1');
    ws.pageOpened('bridge-3', 'w1');
    expect(ws.view().open).toEqual(['main', 'w1']);
  });

  it('a pop-out closed on the desk before its page went does not close the next pop-out given its id', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.pageOpened('bridge-1', null);
    ws.pageOpened('bridge-2', 'w1');
    // The desk closes w1 (`desk.close`), and only then does its page's socket close.
    ws.closeWindow('w1');
    ws.pageClosed('bridge-2');
    // The trader pops the chart out again at once: the new window is w1 too, its page still loading.
    expect(ws.movePanel(chart(), 'new')).toBe('w1');
    timers.fire();
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w1']);
    expect(ws.pageOpened('bridge-3', 'w1')).toEqual({ ok: true, replaced: [] });
    expect(ws.view().desk.panels.find((p) => p.kind === 'chart')?.window).toBe('w1');
  });

  it('the socket of a closed pop-out’s page that closes only after the next pop-out took its id does not close that one', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.pageOpened('bridge-2', 'w1');
    ws.closeWindow('w1');
    expect(ws.movePanel(chart(), 'new')).toBe('w1');
    expect(ws.view().open).toEqual([]); // the old page draws no window the desk has now
    ws.pageClosed('bridge-2'); // late: the new w1's page is still loading
    timers.fire();
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w1']);
    expect(ws.pageOpened('bridge-3', 'w1')).toEqual({ ok: true, replaced: [] });
    expect(ws.view().open).toEqual(['w1']);
  });

  it('a page naming a window that is not on the desk opens none; one naming no window (or garbage) is the main window, as its page reads it', async () => {
    const ws = workstation();
    await ws.use('paper');
    expect(ws.pageOpened('bridge-1', 'w9')).toEqual({ ok: false, reason: 'window w9 is not on the desk' });
    expect(ws.view().open).toEqual([]);
    ws.pageOpened('bridge-2', '../etc');
    expect(ws.view().open).toEqual(['main']);
    ws.pageClosed('bridge-2');
    ws.pageOpened('bridge-3', null);
    expect(ws.view().open).toEqual(['main']);
  });

  it('in Electron a window the trader closes returns its panels; one closed with the desk stays on it', async () => {
    const ws = workstation('main');
    await ws.use('paper');
    ws.movePanel(chart(), 'new');
    ws.openPanel({ kind: 'depth', link: 'red', instrument: null, options: {} }, 'new');
    ws.shellWindowOpened('main');
    ws.shellWindowOpened('w1');
    ws.shellWindowOpened('w2');
    expect(ws.view()).toMatchObject({ opener: 'main', open: ['main', 'w1', 'w2'] });
    ws.shellWindowClosed('w1', true);
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w2']);
    ws.shellWindowClosed('w2', false); // the app quitting
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w2']);
    expect(ws.view().open).toEqual(['main']);
  });
});

describe('workspaces', () => {
  it('saves the desk with its sizes and tabs, loads it back after changes, and each load is a new generation', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new', { x: 2000, y: 100, width: 800, height: 600 });
    ws.link('red', 408065);
    ws.saveWorkspace('Two screens', { layout: { left: 30, main: 70 } }, { 'chart-options': 'options' });
    ws.closeWindow('w1');
    ws.link('red', 1);
    expect(ws.view().workspaces).toEqual(['Two screens']);

    ws.loadWorkspace('Two screens');
    const v = ws.view();
    expect(v.desk.windows.map((w) => [w.id, w.bounds])).toEqual([
      ['main', null],
      ['w1', { x: 2000, y: 100, width: 800, height: 600 }],
    ]);
    expect(v.desk.links).toEqual({ red: 408065 });
    expect(v.loaded).toEqual({
      name: 'Two screens',
      generation: 1,
      layouts: { layout: { left: 30, main: 70 } },
      tabs: { 'chart-options': 'options' },
    });
    ws.loadWorkspace('Two screens');
    expect(ws.view().loaded?.generation).toBe(2);
  });

  it('exports to a file and imports it without overwriting a workspace of the same name', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.saveWorkspace('Morning', {}, {});
    const file = ws.exportWorkspaces();
    expect(file).toMatchObject({ format: 'tradedesk-workspaces', version: 1, workspaces: [{ name: 'Morning' }] });
    expect(ws.importWorkspaces(file)).toEqual(['Morning (2)']);
    expect(ws.importWorkspaces(file)).toEqual(['Morning (3)']);
    expect(ws.view().workspaces).toEqual(['Morning', 'Morning (2)', 'Morning (3)']);
    ws.deleteWorkspace('Morning (2)');
    expect(ws.view().workspaces).toEqual(['Morning', 'Morning (3)']);
    expect(() => ws.loadWorkspace('Evening')).toThrow(/No workspace named "Evening"/);
  });

  it('an imported file with __proto__ and constructor keys (as JSON.parse makes them) stores none of them and pollutes nothing', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.saveWorkspace('Morning', { layout: { left: 30, main: 70 } }, { 'chart-options': 'options' });
    const exported = JSON.stringify(ws.exportWorkspaces());
    const parse = (text: string) =>
      requests['workspaces.import'].input.safeParse({ file: JSON.parse(text) as unknown });
    // On an object of fixed keys: refused, naming the field.
    const onWorkspace = parse(exported.replace('"workspaces":[{', '"workspaces":[{"__proto__":{"polluted":1},'));
    expect(onWorkspace.error?.issues.map((i) => i.path.join('.'))).toEqual(['file.workspaces.0']);
    // Inside the records of sizes and tabs, with values of the right type: kept out of what is stored.
    const inRecords = parse(
      exported
        .replace('"layout":{', '"layout":{"__proto__":40,"constructor":60,')
        .replace('"chart-options":"options"', '"chart-options":"options","__proto__":"x","constructor":"y"'),
    );
    if (inRecords.success) ws.importWorkspaces(inRecords.data.file);
    const text = JSON.stringify(ws.exportWorkspaces());
    expect(text).not.toContain('__proto__');
    expect(text).not.toContain('constructor');
    expect(text).not.toContain('polluted');
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(ws.exportWorkspaces().workspaces[0]?.layouts)).toBe(Object.prototype);
  });

  it('keeps a desk and workspaces per profile, written to the settings file and read back at the next start', async () => {
    const ws = workstation();
    await ws.use('paper');
    ws.movePanel(chart(), 'new', { x: 10, y: 10, width: 700, height: 500 });
    ws.saveWorkspace('Paper desk', {}, {});
    await ws.use('kite:AB1234'); // another profile starts with its own (new) desk
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main']);
    expect(ws.view().workspaces).toEqual([]);
    await ws.close();

    const again = workstation();
    await again.use('paper');
    expect(again.view().desk.windows.map((w) => w.id)).toEqual(['main', 'w1']);
    expect(again.view().desk.panels).toEqual([chart({ window: 'w1' })]);
    expect(again.view().workspaces).toEqual(['Paper desk']);
  });

  it('reads a damaged desk in the settings file as a new desk, keeping the rest of the file', async () => {
    await settings.write({ profile: { kind: 'paper' } });
    const { writeFile, readFile } = await import('node:fs/promises');
    const raw = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({ ...raw, desks: { paper: { current: { windows: [] } } } }),
    );
    expect(await settings.read()).toEqual({ profile: { kind: 'paper' } });
    const ws = workstation();
    await ws.use('paper');
    expect(ws.view().desk.windows.map((w) => w.id)).toEqual(['main']);
  });
});
