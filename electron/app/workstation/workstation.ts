import { AppError } from '@shared/ipc/app-error';
import {
  MAIN_WINDOW,
  MAX_WORKSPACES,
  WindowId,
  type Desk,
  type DeskPanel,
  type DeskView,
  type LinkGroup,
  type PanelId,
  type ScreenRect,
  type Workspace,
  type WorkspaceFile,
} from '@shared/domain/workstation';
import {
  closeWindow,
  emptyDesk,
  movePanel,
  newPanelId,
  removePanel,
  withBounds,
  withLink,
  withOrientation,
  withPanel,
} from '@shared/workstation/desk-model';
import type { SettingsStore } from '../settings/settings-store';

/** Timers the workstation waits with (tests pass manual ones). */
export interface WorkstationTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: WorkstationTimers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface WorkstationOptions {
  readonly settings: SettingsStore;
  /** `main`: the shell opens and closes the windows (Electron); `page`: the main page does (the browser host). */
  readonly opener: 'main' | 'page';
  /** Tells every page what changed (`desk.changed`). */
  readonly changed: (view: DeskView) => void;
  /** Pop-out windows that left the desk: what they watched is no longer wanted (`market.subscribe` owners). */
  readonly windowsGone?: (ids: readonly string[]) => void;
  /**
   * How long a pop-out's page may be gone (a reload, a bridge reconnect) before its window counts
   * as closed and its panels go back to the main window. The browser host only: Electron's shell
   * says when a window closed.
   */
  readonly graceMs?: number;
  /** How long changes gather before the desk is written to the settings file. */
  readonly saveDelayMs?: number;
  readonly timers?: WorkstationTimers;
  /** Where to report a write of the settings that failed (default console.error). */
  readonly log?: (message: string) => void;
}

/**
 * The one live desk (docs/workstation.md §The desk): which windows there are, the panels in each,
 * the colour groups' instruments, which windows have a page open, and the profile's named
 * workspaces. Every change is pushed to every page (`desk.changed`) and written, a moment later,
 * to the settings file under the profile, so the desk is restored as it was on the next start.
 *
 * A page says which window it is when its bridge opens (`pageOpened`); in the browser host a
 * pop-out whose page is gone for `graceMs` is closed (its panels return to the main window), in
 * Electron the shell says when a window closed (`shellWindowClosed`).
 */
/** What a page's claim of a window came to: refused, or bound (closing the pages it replaced). */
export type PageClaim =
  { readonly ok: true; readonly replaced: readonly string[] } | { readonly ok: false; readonly reason: string };

export class Workstation {
  readonly #o: WorkstationOptions;
  readonly #timers: WorkstationTimers;
  #profile: string | null = null;
  #desk: Desk = emptyDesk();
  #workspaces: Workspace[] = [];
  #loaded: DeskView['loaded'] = null;
  #generation = 0;
  /** Each connected page (a bridge, a webContents) and the window it draws. */
  readonly #pages = new Map<string, string>();
  /**
   * Pages still connected whose window left the desk, and the window they drew. Window ids are
   * reused (`newWindowId`): such a page neither counts as drawing the next window given its id nor,
   * when its socket closes (seconds later on a busy host), starts that window's grace.
   */
  readonly #retired = new Map<string, string>();
  /** Pop-outs the shell has open (Electron). */
  readonly #shellOpen = new Set<string>();
  readonly #grace = new Map<string, unknown>();
  #saveTimer: unknown = null;
  #saving: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(view: DeskView) => void>();

  public constructor(options: WorkstationOptions) {
    this.#o = options;
    this.#timers = options.timers ?? REAL_TIMERS;
  }

  /** What every page draws from. */
  public view(): DeskView {
    const open = this.#desk.windows
      .map((w) => w.id)
      .filter((id) => this.#shellOpen.has(id) || [...this.#pages.values()].includes(id));
    return {
      desk: this.#desk,
      open,
      opener: this.#o.opener,
      workspaces: this.#workspaces.map((w) => w.name),
      loaded: this.#loaded,
    };
  }

  /** Calls `listener` after every change (the Electron shell mirrors the desk's windows). */
  public onChange(listener: (view: DeskView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Switches to `profileKey`'s desk and workspaces (at each login), writing the previous profile's first. */
  public async use(profileKey: string): Promise<void> {
    if (profileKey === this.#profile) return;
    await this.flush();
    const stored = (await this.#o.settings.read()).desks?.[profileKey];
    const before = this.#desk;
    this.#profile = profileKey;
    this.#desk = stored?.current ?? emptyDesk();
    this.#workspaces = stored?.workspaces ?? [];
    this.#loaded = null;
    this.#gone(before, this.#desk);
    this.#changed(false);
  }

  // ------------------------------------------------------------------ pages and windows

  /**
   * A page's bridge opened, drawing `window` (as its URL says; absent or not a window id is the
   * main window). A
   * pop-out claim is bound only to a window on the desk; a claim of the main window replaces the
   * page that held it, which the transport closes (a reload opens the new socket before the old
   * one's close arrives). docs/workstation.md §Which page draws which window.
   */
  public pageOpened(caller: string, window: string | null): PageClaim {
    // What is no window id is the main window, as the page itself reads it (this-window.ts).
    const id = window !== null && WindowId.safeParse(window).success ? window : MAIN_WINDOW;
    if (id !== MAIN_WINDOW && !this.#desk.windows.some((w) => w.id === id))
      return { ok: false, reason: `window ${id} is not on the desk` };
    const replaced =
      id === MAIN_WINDOW ? [...this.#pages].filter(([, w]) => w === MAIN_WINDOW).map(([other]) => other) : [];
    for (const other of replaced) this.#pages.delete(other);
    this.#retired.delete(caller);
    this.#pages.set(caller, id);
    this.#cancelGrace(id);
    this.#changed(false);
    return { ok: true, replaced };
  }

  /**
   * The window the page `caller` draws, or null for a caller that is no page (main's own work,
   * tests): what a page asks to watch is kept under its window (docs/workstation.md §What a
   * pop-out costs).
   */
  public windowOf(caller: string): string | null {
    return this.#pages.get(caller) ?? this.#retired.get(caller) ?? null;
  }

  /**
   * A page's bridge closed. A pop-out left with no page closes after the grace, unless one comes
   * back; the page of a window the desk already closed starts none (docs/workstation.md §Windows,
   * Closing).
   */
  public pageClosed(caller: string): void {
    if (this.#retired.delete(caller)) return;
    const id = this.#pages.get(caller);
    if (id === undefined) return;
    this.#pages.delete(caller);
    if (id !== MAIN_WINDOW && !this.#hasPage(id) && !this.#shellOpen.has(id)) {
      this.#cancelGrace(id);
      this.#grace.set(
        id,
        this.#timers.set(() => {
          this.#grace.delete(id);
          if (!this.#hasPage(id)) this.closeWindow(id);
        }, this.#o.graceMs ?? 3_000),
      );
    }
    this.#changed(false);
  }

  /** The shell opened a window of the desk (Electron). */
  public shellWindowOpened(id: string): void {
    this.#shellOpen.add(id);
    this.#changed(false);
  }

  /**
   * The shell's window closed. Closed by the trader, its panels go back to the main window;
   * closed with the desk (the app quitting), it stays on the desk to open again next time.
   */
  public shellWindowClosed(id: string, byTrader: boolean): void {
    this.#shellOpen.delete(id);
    const next = id === MAIN_WINDOW || !byTrader ? this.#desk : closeWindow(this.#desk, id);
    if (next !== this.#desk) this.#set(next);
    else this.#changed(false);
  }

  #hasPage(id: string): boolean {
    for (const w of this.#pages.values()) if (w === id) return true;
    return false;
  }

  #cancelGrace(id: string): void {
    const t = this.#grace.get(id);
    if (t !== undefined) this.#timers.clear(t);
    this.#grace.delete(id);
  }

  // ------------------------------------------------------------------ changes

  /** Moves a panel into window `to` (or a new one); returns the window. */
  public movePanel(panel: DeskPanel, to: string | 'new', bounds: ScreenRect | null = null): string {
    const r = movePanel(this.#desk, panel, to, bounds);
    this.#set(r.desk);
    return r.window;
  }

  /** Opens another panel of `kind` in window `to` (or a new one); returns its id and window. */
  public openPanel(
    panel: Omit<DeskPanel, 'id' | 'window'>,
    to: string | 'new',
    bounds: ScreenRect | null = null,
  ): { panel: PanelId; window: string } {
    const id = newPanelId(this.#desk, panel.kind);
    const r = movePanel(this.#desk, { ...panel, id, window: MAIN_WINDOW }, to, bounds);
    this.#set(r.desk);
    return { panel: id, window: r.window };
  }

  /** Stores a panel's link, own instrument and options (as the page sees it). */
  public setPanel(panel: DeskPanel): void {
    this.#set(withPanel(this.#desk, panel));
  }

  public removePanel(id: PanelId): void {
    this.#set(removePanel(this.#desk, id));
  }

  /** What colour group `group` follows now. */
  public link(group: LinkGroup, instrument: number): void {
    this.#set(withLink(this.#desk, group, instrument));
  }

  /** Closes a pop-out; its panels go back to the main window. */
  public closeWindow(id: string): void {
    this.#set(closeWindow(this.#desk, id));
  }

  /** Where a window is now (the shell or the page saw it move). Written, not pushed: no page draws bounds. */
  public windowMoved(id: string, bounds: ScreenRect, display: string | null): void {
    const next = withBounds(this.#desk, id, bounds, display);
    if (next === this.#desk) return;
    this.#desk = next;
    this.#scheduleSave();
  }

  public orientation(id: string, orientation: 'horizontal' | 'vertical'): void {
    this.#set(withOrientation(this.#desk, id, orientation));
  }

  // ------------------------------------------------------------------ workspaces

  /** Saves the desk as it is, with the pages' sizes and tabs, under `name` (replacing one of that name). */
  public saveWorkspace(name: string, layouts: Workspace['layouts'], tabs: Workspace['tabs']): void {
    const others = this.#workspaces.filter((w) => w.name !== name);
    if (others.length >= MAX_WORKSPACES) {
      throw new AppError({ kind: 'bad_request', message: `At most ${MAX_WORKSPACES} workspaces`, field: 'name' });
    }
    const saved: Workspace = { name, desk: this.#desk, layouts, tabs };
    const at = this.#workspaces.findIndex((w) => w.name === name);
    this.#workspaces = at < 0 ? [...others, saved] : this.#workspaces.map((w, n) => (n === at ? saved : w));
    this.#loaded = { name, generation: this.#loaded?.generation ?? this.#generation, layouts, tabs };
    this.#changed(true);
  }

  /** Makes workspace `name` the desk: its windows, panels, links, sizes and tabs. */
  public loadWorkspace(name: string): void {
    const ws = this.#find(name);
    const before = this.#desk;
    // A pop-out closed a moment ago waits out its grace to close on the old desk; the loaded desk
    // is a new one, whose pop-out of the same id has no page yet because it is still opening
    // (docs/workstation.md §Workspaces). That grace must not close it.
    for (const id of [...this.#grace.keys()]) this.#cancelGrace(id);
    this.#desk = ws.desk;
    this.#generation += 1;
    this.#loaded = { name, generation: this.#generation, layouts: ws.layouts, tabs: ws.tabs };
    this.#gone(before, this.#desk);
    this.#changed(true);
  }

  public deleteWorkspace(name: string): void {
    this.#find(name);
    this.#workspaces = this.#workspaces.filter((w) => w.name !== name);
    if (this.#loaded?.name === name) this.#loaded = null;
    this.#changed(true);
  }

  /** The workspaces named (all when none are) as a file's contents. */
  public exportWorkspaces(names?: readonly string[]): WorkspaceFile {
    const chosen = names ? names.map((n) => this.#find(n)) : this.#workspaces;
    if (chosen.length === 0) {
      throw new AppError({
        kind: 'bad_request',
        message: 'There is no workspace to export: save one first',
        field: 'names',
      });
    }
    return { format: 'tradedesk-workspaces', version: 1, workspaces: chosen };
  }

  /**
   * Adds a file's workspaces; a name already in use gets " (2)" (" (3)"…), so an import never
   * overwrites a workspace the trader has. Returns the names as imported.
   */
  public importWorkspaces(file: WorkspaceFile): string[] {
    if (this.#workspaces.length + file.workspaces.length > MAX_WORKSPACES) {
      throw new AppError({
        kind: 'bad_request',
        message: `The file has ${file.workspaces.length} workspaces and ${this.#workspaces.length} are saved: at most ${MAX_WORKSPACES} in all`,
        field: 'file.workspaces',
      });
    }
    const names: string[] = [];
    for (const ws of file.workspaces) {
      const taken = new Set(this.#workspaces.map((w) => w.name));
      let name = ws.name;
      for (let n = 2; taken.has(name); n += 1) name = `${ws.name.slice(0, 34)} (${n})`;
      this.#workspaces = [...this.#workspaces, { ...ws, name }];
      names.push(name);
    }
    this.#changed(true);
    return names;
  }

  #find(name: string): Workspace {
    const ws = this.#workspaces.find((w) => w.name === name);
    if (!ws) throw new AppError({ kind: 'not_found', message: `No workspace named "${name}"`, field: 'name' });
    return ws;
  }

  // ------------------------------------------------------------------ pushing and writing

  #set(desk: Desk): void {
    if (desk === this.#desk) return;
    const before = this.#desk;
    this.#desk = desk;
    this.#gone(before, desk);
    this.#changed(true);
  }

  /** Tells `windowsGone` about the pop-outs of `before` that `after` no longer has; their pages are retired. */
  #gone(before: Desk, after: Desk): void {
    const kept = new Set(after.windows.map((w) => w.id));
    const gone = before.windows.map((w) => w.id).filter((id) => !kept.has(id));
    for (const id of gone) this.#cancelGrace(id);
    for (const [caller, id] of this.#pages)
      if (gone.includes(id)) {
        this.#pages.delete(caller);
        this.#retired.set(caller, id);
      }
    if (gone.length > 0) this.#o.windowsGone?.(gone);
  }

  #changed(save: boolean): void {
    const view = this.view();
    this.#o.changed(view);
    for (const l of this.#listeners) l(view);
    if (save) this.#scheduleSave();
  }

  #scheduleSave(): void {
    if (this.#profile === null || this.#saveTimer !== null) return;
    this.#saveTimer = this.#timers.set(() => {
      this.#saveTimer = null;
      void this.#write();
    }, this.#o.saveDelayMs ?? 300);
  }

  #write(): Promise<unknown> {
    const key = this.#profile;
    if (key === null) return this.#saving;
    const entry = { current: this.#desk, workspaces: this.#workspaces };
    this.#saving = this.#o.settings
      .update((s) => ({ ...s, desks: { ...s.desks, [key]: entry } }))
      .catch((e: unknown) =>
        (this.#o.log ?? console.error)(`Could not save the desk: ${e instanceof Error ? e.message : String(e)}`),
      );
    return this.#saving;
  }

  /** Writes a pending change now (a profile switch, closing the app). */
  public async flush(): Promise<void> {
    if (this.#saveTimer !== null) {
      this.#timers.clear(this.#saveTimer);
      this.#saveTimer = null;
      await this.#write();
    }
    await this.#saving;
  }

  public async close(): Promise<void> {
    for (const id of [...this.#grace.keys()]) this.#cancelGrace(id);
    await this.flush();
  }
}
