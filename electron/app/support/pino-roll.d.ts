/** pino-roll ships no types; only what app-log.ts uses (it returns a sonic-boom stream). */
declare module 'pino-roll' {
  import type { EventEmitter } from 'node:events';
  interface PinoRollOptions {
    readonly file: string;
    readonly size?: string | number;
    readonly frequency?: 'daily' | 'hourly' | number;
    readonly extension?: string;
    readonly limit?: { readonly count?: number; readonly removeOtherLogFiles?: boolean };
    readonly mkdir?: boolean;
    /** sonic-boom's: the mode each new log file is created with. */
    readonly mode?: number;
  }
  interface RollingStream extends EventEmitter {
    write(chunk: string): boolean;
    flush(cb?: (err?: Error) => void): void;
    end(): void;
  }
  const pinoRoll: (options: PinoRollOptions) => Promise<RollingStream>;
  export = pinoRoll;
}
