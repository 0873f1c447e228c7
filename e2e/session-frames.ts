import type { Page } from '@playwright/test';

/**
 * The session facts the page receives over the bridge WebSocket, and a way to deliver the
 * login's reply after the new session's expiry (test code only).
 *
 * Main numbers every session fact (docs/session.md §Session facts are ordered by main); the
 * specs use the numbers to wait for "the session this login made has been refused" instead of
 * guessing how long that takes.
 */

interface Version {
  readonly run: string;
  readonly seq: number;
}

interface Frame {
  readonly id?: number;
  readonly channel?: string;
  readonly event?: string;
  readonly result?: { ok: boolean; data?: { version?: Version } };
  readonly payload?: { version?: Version };
}

/** What the page has received so far about logins and expiries. */
export interface SessionFrames {
  /** Versions of the login replies the page received, in arrival order. */
  readonly loginReplies: Version[];
  /** Versions of the `session.expired` events the page received, in arrival order. */
  readonly expiries: Version[];
  /** True once the page has received an expiry numbered after the last login reply it received. */
  loginRefused(): boolean;
}

function parse(data: string | Buffer): Frame | null {
  if (typeof data !== 'string') return null;
  try {
    return JSON.parse(data) as Frame;
  } catch {
    return null;
  }
}

function newer(a: Version, b: Version): boolean {
  return a.run === b.run && a.seq > b.seq;
}

/**
 * Routes the page's bridge WebSocket through the test (before `page.goto`). Every frame is
 * passed on unchanged, except that with `holdNextLoginReply` the reply to the next
 * `session.login` is held back until the page has received a `session.expired` numbered after
 * it: the order a loaded machine produces now and then, made certain.
 */
export async function routeBridge(page: Page): Promise<SessionFrames & { holdNextLoginReply(): void }> {
  const loginReplies: Version[] = [];
  const expiries: Version[] = [];
  let holdNext = false;
  await page.routeWebSocket(/\/bridge\?/, (ws) => {
    const server = ws.connectToServer();
    const loginIds = new Set<number>();
    let held: { frame: string; version: Version } | null = null;
    const releaseIfOvertaken = (): void => {
      if (held && expiries.some((e) => newer(e, held!.version))) {
        const { frame, version } = held;
        held = null;
        ws.send(frame);
        loginReplies.push(version);
      }
    };
    ws.onMessage((data) => {
      const f = parse(data);
      if (f?.channel === 'session.login' && typeof f.id === 'number') loginIds.add(f.id);
      server.send(data);
    });
    server.onMessage((data) => {
      const f = parse(data);
      const version = f?.result?.data?.version;
      if (f && typeof f.id === 'number' && loginIds.has(f.id) && version) {
        loginIds.delete(f.id);
        if (holdNext) {
          holdNext = false;
          held = { frame: data as string, version };
          releaseIfOvertaken();
          return;
        }
        loginReplies.push(version);
      }
      ws.send(data);
      if (f?.event === 'session.expired' && f.payload?.version) {
        expiries.push(f.payload.version);
        releaseIfOvertaken();
      }
    });
  });
  return {
    loginReplies,
    expiries,
    loginRefused: () => {
      const last = loginReplies.at(-1);
      return last !== undefined && expiries.some((e) => newer(e, last));
    },
    holdNextLoginReply: () => {
      holdNext = true;
    },
  };
}
