import { create } from 'zustand';
import { isOlderSession, type SessionInfo, type SessionVersion } from '@shared/domain/session';

/** Why the session ended, and where that stands among main's session facts. */
export interface SessionExpiry {
  readonly reason: string;
  readonly version: SessionVersion;
}

/**
 * The session banner the whole app shows: why the session ended ("alerts" are the trader's
 * price alerts, `features/alerts`). UI state only (the session itself is
 * react-query's `session.status`).
 *
 * Main's session facts reach the renderer as pushes and as replies, in either order; each
 * carries main's numbering (docs/session.md §Session facts are ordered by main), and this
 * store keeps the newest it has applied so a late, older fact changes nothing: an expiry older
 * than a session seen since cannot raise the banner (it would lie), and a connected session
 * older than the expiry cannot clear it (the desk would be dead without saying why).
 */
interface SessionBannerState {
  readonly sessionExpired: SessionExpiry | null;
  /** The newest session fact applied here, expiry or status. */
  readonly newest: SessionVersion | null;
  readonly actions: {
    /** Main pushed `session.expired`. */
    sessionExpired(reason: string, version: SessionVersion): void;
    /** The renderer took a session status (pushed, replied or refetched): a newer connected one ends the banner. */
    sessionSeen(info: SessionInfo): void;
  };
}

const stale = (version: SessionVersion, newest: SessionVersion | null): boolean =>
  newest !== null && isOlderSession(version, newest);

const useSessionBannerStore = create<SessionBannerState>()((set) => ({
  sessionExpired: null,
  newest: null,
  actions: {
    sessionExpired: (reason, version) =>
      set((s) => (stale(version, s.newest) ? s : { sessionExpired: { reason, version }, newest: version })),
    sessionSeen: (info) =>
      set((s) => {
        if (stale(info.version, s.newest)) return s;
        return { newest: info.version, sessionExpired: info.state === 'connected' ? null : s.sessionExpired };
      }),
  },
}));

/** The reason the session expired, or null while it is fine. */
export const useSessionExpired = (): string | null => useSessionBannerStore((s) => s.sessionExpired?.reason ?? null);
/** The banner's actions, stable across renders. */
export const useSessionBannerActions = (): SessionBannerState['actions'] => useSessionBannerStore((s) => s.actions);
