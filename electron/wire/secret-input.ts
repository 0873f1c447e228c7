import { open } from 'node:fs/promises';
import { text } from 'node:stream/consumers';

/**
 * Secrets for a command line (the broker app's secret, a pasted access token) never come as
 * argument values: every local user can read a process's arguments with `ps`. They come from an
 * environment variable, a file only its owner can read (mode 0600 or stricter), or stdin
 * (`--…-file -`) — README.md §Secrets on the command line.
 */

/** One secret a command reads: its retired flag, its file flag and its environment variable. */
export interface SecretSpec {
  /** The old argv flag, refused: `--api-secret`. */
  readonly flag: string;
  /** `--api-secret-file`: a path, or `-` for stdin. */
  readonly fileFlag: string;
  /** `TRADEDESK_API_SECRET`. */
  readonly envName: string;
}

export const API_SECRET: SecretSpec = {
  flag: '--api-secret',
  fileFlag: '--api-secret-file',
  envName: 'TRADEDESK_API_SECRET',
};
export const ACCESS_TOKEN: SecretSpec = {
  flag: '--access-token',
  fileFlag: '--access-token-file',
  envName: 'TRADEDESK_ACCESS_TOKEN',
};

/** Why a secret could not be read; the message names the flag or file and is meant for stderr. */
export class SecretInputError extends Error {}

/** The one line that refuses a secret given as an argument, naming what replaces it. */
export function refusedFlagMessage(spec: SecretSpec): string {
  return `${spec.flag} is no longer accepted (any local user can read it with ps): set ${spec.envName} or pass ${spec.fileFlag} PATH (mode 0600) or ${spec.fileFlag} - (stdin)`;
}

/** Where a command reads a secret from: its file flag's value, the environment, stdin. */
export interface SecretSources {
  readonly file: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  /** The platform whose file modes mean something (Windows has no owner-only bits to check). */
  readonly platform: NodeJS.Platform;
}

/**
 * The secret `spec` names: from `--…-file` when given (the file must not be readable by group or
 * others), else from the environment; undefined when neither. Trailing line ends are dropped.
 */
export async function readSecret(spec: SecretSpec, from: SecretSources): Promise<string | undefined> {
  if (from.file === undefined) {
    const v = from.env[spec.envName];
    return v === undefined || v === '' ? undefined : v;
  }
  const raw = from.file === '-' ? await text(from.stdin) : await readOwnerOnly(spec, from.file, from.platform);
  const secret = raw.replace(/[\r\n]+$/, '');
  if (secret === '') throw new SecretInputError(`${spec.fileFlag} ${from.file}: empty`);
  return secret;
}

async function readOwnerOnly(spec: SecretSpec, path: string, platform: NodeJS.Platform): Promise<string> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (e) {
    throw new SecretInputError(`${spec.fileFlag} ${path}: ${(e as NodeJS.ErrnoException).code ?? 'cannot open'}`);
  }
  try {
    // Checked on the open file, so the file read is the one whose mode was checked.
    const mode = (await file.stat()).mode & 0o777;
    if (platform !== 'win32' && (mode & 0o077) !== 0)
      throw new SecretInputError(
        `${spec.fileFlag} ${path}: mode ${mode.toString(8).padStart(4, '0')} lets other users read it; chmod 600 ${path}`,
      );
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}
