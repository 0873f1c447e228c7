import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command's option table, as `node:util`'s `parseArgs` reads it. */
type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command line reads, or why it does not: `exit` is the process's code to leave with. */
export type CliReading<T> =
  | { readonly kind: 'run'; readonly values: T; readonly positionals: string[] }
  | { readonly kind: 'exit'; readonly code: 0 | 2; readonly stdout?: string; readonly stderr?: string };

/**
 * Reads a command line strictly, the one way every command of the repo does (docs/api.md §Running
 * it): `--help` or `-h` is the usage on stdout and exit 0 — before anything is built, opened or
 * started — and a flag the command does not know, or a value missing, is one line on stderr that
 * names it, and exit 2 (never a Node stack trace).
 */
export function readCommandLine<const O extends Options>(
  command: string,
  usage: string,
  options: O,
  args: readonly string[],
  allowPositionals = false,
): CliReading<ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: boolean }>>['values']> {
  if (args.includes('--help') || args.includes('-h')) return { kind: 'exit', code: 0, stdout: usage };
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals });
    return { kind: 'run', values: parsed.values, positionals: parsed.positionals };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw e;
    return { kind: 'exit', code: 2, stderr: `${command}: ${firstLine(e)} (--help lists the options)` };
  }
}

/** Node's parse errors append advice on a second line ("To specify a positional argument …"). */
function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0]?.trim() ?? message;
}

/** Leaves the process as a reading says, or hands back the values to run with. */
export function commandLineOrExit<T>(reading: CliReading<T>): { values: T; positionals: string[] } {
  if (reading.kind === 'run') return reading;
  if (reading.stdout !== undefined) console.log(reading.stdout);
  if (reading.stderr !== undefined) console.error(reading.stderr);
  process.exit(reading.code);
}
