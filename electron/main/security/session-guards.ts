import type { Session } from 'electron';

/** The part of an Electron `Session` the guards set (a fake stands in for it in unit tests). */
export type GuardedSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on'>;

/**
 * Denies every permission request and check on a session (notifications, media, geolocation…).
 * Electron grants them by default, and every session needs its own handlers: the app's and the
 * Kite login window's in-memory partition alike (docs/session.md §Login through the broker's page).
 */
export function denyPermissions(ses: GuardedSession): void {
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

/**
 * Refuses every download a session's pages start. The login window shows a third party's page;
 * nothing it offers should land on the trader's disk.
 */
export function denyDownloads(ses: GuardedSession): void {
  ses.on('will-download', (event) => event.preventDefault());
}
