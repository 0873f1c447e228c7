import type { Handlers } from '../dispatcher';
import type { EventHub } from '../event-hub';
import type { Workstation } from '../workstation/workstation';

type DeskChannel =
  | 'desk.view'
  | 'desk.move'
  | 'desk.open'
  | 'desk.set'
  | 'desk.remove'
  | 'desk.link'
  | 'desk.close'
  | 'desk.firstScreen'
  | 'desk.moved'
  | 'desk.orientation'
  | 'desk.command'
  | 'workspaces.save'
  | 'workspaces.load'
  | 'workspaces.delete'
  | 'workspaces.export'
  | 'workspaces.import';

/** The workstation's channels (docs/workstation.md): the desk, its windows and panels, the workspaces. */
export function deskHandlers(
  desk: Workstation,
  events: EventHub,
  firstScreenDrawn: () => void,
): Pick<Handlers, DeskChannel> {
  const done = {};
  return {
    'desk.view': async () => desk.view(),
    'desk.move': async ({ panel, to, bounds }) => ({ window: desk.movePanel(panel, to, bounds ?? null) }),
    'desk.open': async ({ panel, to, bounds }) => desk.openPanel(panel, to, bounds ?? null),
    'desk.set': async ({ panel }) => (desk.setPanel(panel), done),
    'desk.remove': async ({ panel }) => (desk.removePanel(panel), done),
    'desk.link': async ({ group, instrument }) => (desk.link(group, instrument), done),
    'desk.close': async ({ window }) => (desk.closeWindow(window), done),
    'desk.firstScreen': async () => (firstScreenDrawn(), done),
    'desk.moved': async ({ window, bounds, display }) => (desk.windowMoved(window, bounds, display ?? null), done),
    'desk.orientation': async ({ window, orientation }) => (desk.orientation(window, orientation), done),
    // Relayed to every page; the window named acts (and Electron's shell raises it).
    'desk.command': async (command) => (events.emit('desk.command', command), done),
    'workspaces.save': async ({ name, layouts, tabs }) => (desk.saveWorkspace(name, layouts, tabs), done),
    'workspaces.load': async ({ name }) => (desk.loadWorkspace(name), done),
    'workspaces.delete': async ({ name }) => (desk.deleteWorkspace(name), done),
    'workspaces.export': async ({ names }) => desk.exportWorkspaces(names),
    'workspaces.import': async ({ file }) => ({ names: desk.importWorkspaces(file) }),
  };
}
