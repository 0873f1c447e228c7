import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pino, stdTimeFunctions, type Logger } from 'pino';
import pinoRoll from 'pino-roll';
import type { EventName } from '@shared/ipc/contract';
import type { EventHub } from '../event-hub';
import { REDACTED, SECRET_KEYS, scrubSecrets } from './secrets';

/**
 * Main's structured log (docs/architecture.md §Release): JSON lines in `<dataDir>/logs/`, rolled
 * by pino-roll at a size and once a day, the oldest removed past a count; the folder 0700 and each
 * file 0600. Secrets never reach the file: values under secret-named keys are replaced by pino's
 * redaction, and each written line is scrubbed of the shapes a token travels in (an
 * `Authorization` header, a query parameter), which catches one quoted in an error message.
 */
export interface AppLog {
  /** The folder the files are in. */
  readonly dir: string;
  /** A problem worth a support desk's look (start-up, a handler's bug); `err`'s stack is kept. */
  problem(message: string, err?: unknown): void;
  /** Something that happened, with its fields. */
  info(fields: Record<string, unknown>, message: string): void;
  /** Logs the events a support desk reads a session by; returns the unsubscribe. */
  follow(events: EventHub): () => void;
  /** Writes what is buffered and closes the file; later lines are dropped. Idempotent. */
  close(): Promise<void>;
}

export interface AppLogOptions {
  readonly dir: string;
  /** Roll past this size (pino-roll's units: `10m`, `500k`; default 5m). */
  readonly maxSize?: string;
  /** Rolled files kept beside the current one (default 5). */
  readonly keep?: number;
}

/** The secret keys at the top and two levels down (a payload's profile, a request's headers). */
const REDACT_PATHS = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

/** Events a support desk reads a session by; the busy ones (ticks, orders, usage) stay out. */
const LOGGED_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'session.changed',
  'session.expired',
  'connection.changed',
  'placements.changed',
  'safety.progress',
  'squareOff.changed',
  'alerts.fired',
  'alerts.ordered',
  'brackets.changed',
]);

/** The log files in a log folder, oldest first by pino-roll's number. */
export async function logFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const number = (n: string): number => Number(/\.(\d+)\.log$/.exec(n)?.[1] ?? 0);
  return names
    .filter((n) => /^tradedesk\.\d+\.log$/.test(n))
    .sort((a, b) => number(a) - number(b))
    .map((n) => join(dir, n));
}

export async function openAppLog(options: AppLogOptions): Promise<AppLog> {
  const { dir } = options;
  // mkdir's mode applies only to a folder it creates; chmod narrows one made before.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  for (const file of await logFiles(dir)) await chmod(file, 0o600);
  const stream = await pinoRoll({
    file: join(dir, 'tradedesk'),
    extension: '.log',
    size: options.maxSize ?? '5m',
    frequency: 'daily',
    // With removeOtherLogFiles the count is of every file, the current one included.
    limit: { count: (options.keep ?? 5) + 1, removeOtherLogFiles: true },
    mode: 0o600,
  });
  const logger: Logger = pino(
    {
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: { streamWrite: scrubSecrets },
    },
    stream,
  );
  // Once closed the log drops what comes later (events still fire while the services close).
  let closing: Promise<void> | null = null;
  const open = (): boolean => closing === null;
  return {
    dir,
    problem: (message, err) => {
      if (!open()) return;
      if (err === undefined) logger.error(message);
      else logger.error({ err }, message);
    },
    info: (fields, message) => {
      if (open()) logger.info(fields, message);
    },
    follow: (events) =>
      events.onAny((event, payload) => {
        if (open() && LOGGED_EVENTS.has(event)) logger.info({ event, payload }, event);
      }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      })),
  };
}

/**
 * The shell's handle on the log: problems go to the console until the log is open and after it
 * is closed (start-up failures, the last words of a quit).
 */
export class MainLog {
  #log: AppLog | null = null;

  public async open(dir: string): Promise<AppLog> {
    this.#log = await openAppLog({ dir });
    return this.#log;
  }

  public readonly problem = (message: string, err?: unknown): void => {
    if (this.#log) this.#log.problem(message, err);
    else console.error(message, err ?? '');
  };

  public readonly close = async (): Promise<void> => {
    const log = this.#log;
    this.#log = null;
    await log?.close();
  };
}
